"""Renders congo.svg boards in a real headless Chromium and checks the pixels of the screenshot.

Needs Debian's ``chromium`` package (``/usr/bin/chromium``) and the ``playwright`` Python package
(``pip install -e '.[browser]'``; ``playwright install`` is not needed: the system browser is used).
The tests are skipped when either is missing; with ``CONGO_TEST_REQUIRE_EXTRAS=1`` (CI's run with
every extra installed) they fail instead, so a missing install step cannot hide.
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterator

import pytest

import congo
import congo.svg
from congo import BLACK, Board
from tests import extras
from tests.browser_support import CHROMIUM, missing_browser

MISSING = missing_browser()
if MISSING is not None:
    if extras.REQUIRED:
        pytest.fail(f"browser tests cannot run with CONGO_TEST_REQUIRE_EXTRAS=1: {MISSING}", pytrace=False)
    pytest.skip(MISSING, allow_module_level=True)

from playwright.sync_api import Browser, sync_playwright  # noqa: E402


class Image:
    """A decoded 8-bit RGB or RGBA PNG (what Chromium's screenshots are): enough to read pixels."""

    def __init__(self, png: bytes) -> None:
        assert png[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, data = 8, b""
        while pos < len(png):
            (length,) = struct.unpack(">I", png[pos : pos + 4])
            kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
            if kind == b"IHDR":
                self.width, self.height, depth, color_type, _, _, interlace = struct.unpack(">IIBBBBB", body)
                supported = depth == 8 and color_type in (2, 6) and interlace == 0
                assert supported, (depth, color_type, interlace)
                self.channels = 3 if color_type == 2 else 4
            elif kind == b"IDAT":
                data += body
            pos += 12 + length
        raw = zlib.decompress(data)
        stride = self.width * self.channels
        rows: list[bytearray] = []
        previous = bytearray(stride)
        for y in range(self.height):
            kind = raw[y * (stride + 1)]
            line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
            for x in range(stride):
                left = line[x - self.channels] if x >= self.channels else 0
                up = previous[x]
                up_left = previous[x - self.channels] if x >= self.channels else 0
                if kind == 1:
                    line[x] = (line[x] + left) & 0xFF
                elif kind == 2:
                    line[x] = (line[x] + up) & 0xFF
                elif kind == 3:
                    line[x] = (line[x] + (left + up) // 2) & 0xFF
                elif kind == 4:
                    p = left + up - up_left
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - up_left)
                    predictor = left if pa <= pb and pa <= pc else up if pb <= pc else up_left
                    line[x] = (line[x] + predictor) & 0xFF
            rows.append(line)
            previous = line
        self.rows = rows

    def pixel(self, x: float, y: float) -> tuple[int, int, int]:
        row, i = self.rows[int(y)], int(x) * self.channels
        return row[i], row[i + 1], row[i + 2]


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield browser
        browser.close()


def screenshot(browser: Browser, svg: str) -> Image:
    page = browser.new_page(viewport={"width": 600, "height": 600}, device_scale_factor=1)
    try:
        page.set_content(f"<!DOCTYPE html><html><body style='margin:0;background:#fff'>{svg}</body></html>")
        return Image(page.locator("svg").first.screenshot(type="png"))
    finally:
        page.close()


SQ = congo.svg.SQUARE_SIZE


def centre(square: int, *, margin: int = 0, flipped: bool = False) -> tuple[float, float]:
    file, rank = congo.square_file(square), congo.square_rank(square)
    column, row = (6 - file, rank) if flipped else (file, 6 - rank)
    return margin + column * SQ + SQ / 2, margin + row * SQ + SQ / 2


def is_blue(rgb: tuple[int, int, int]) -> bool:
    r, _, b = rgb
    return b > 150 and b > r + 60


def is_castle_outline(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb
    return r > g + 40 and r > b + 40 and r < 160


def is_highlight(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb
    return r > 200 and g > 180 and b < 150


def is_chain(rgb: tuple[int, int, int]) -> bool:
    r, g, b = rgb
    return r > 180 and 60 < g < 170 and b < 110


def is_light(rgb: tuple[int, int, int]) -> bool:
    return min(rgb) > 215


def is_dark(rgb: tuple[int, int, int]) -> bool:
    return max(rgb) < 70


def test_start_position_renders_with_river_castles_and_both_colours(browser: Browser) -> None:
    image = screenshot(browser, congo.svg.board(Board(), coordinates=False))
    assert (image.width, image.height) == (7 * SQ, 7 * SQ)
    # River water on every square of rank 4 (sampled between the waves).
    for file in range(7):
        x, y = centre(congo.square(file, 3))
        assert is_blue(image.pixel(x, y - 18)), (file, image.pixel(x, y - 18))
    # No water elsewhere.
    for sq in (congo.A3, congo.D5, congo.G6):
        x, y = centre(sq)
        assert not is_blue(image.pixel(x, y)), sq
    # White pieces are light discs on ranks 1-2, Black pieces dark discs on ranks 6-7 (sampled on the
    # disc below the emblem).
    for sq in [*range(congo.A1, congo.G2 + 1)]:
        x, y = centre(sq)
        assert is_light(image.pixel(x, y + 16)), (congo.square_name(sq), image.pixel(x, y + 16))
    for sq in [*range(congo.A6, congo.G7 + 1)]:
        x, y = centre(sq)
        assert is_dark(image.pixel(x, y + 16)), (congo.square_name(sq), image.pixel(x, y + 16))
    # Empty land squares are neither.
    x, y = centre(congo.A3)
    assert not is_light(image.pixel(x, y))
    assert not is_dark(image.pixel(x, y))
    # The castle outline: dark red-brown on the edge between b2 and c2.
    x, y = centre(congo.C3)
    assert is_castle_outline(image.pixel(2 * SQ + 1, y)), image.pixel(2 * SQ + 1, y)


def test_orientation_black_puts_black_at_the_bottom(browser: Browser) -> None:
    image = screenshot(browser, congo.svg.board(Board(), coordinates=False, orientation=BLACK))
    x, y = centre(congo.D7, flipped=True)
    assert y > 5 * SQ
    assert is_dark(image.pixel(x, y + 16))
    x, y = centre(congo.D1, flipped=True)
    assert is_light(image.pixel(x, y + 16))


def test_last_move_and_monkey_chain_are_visible(browser: Browser) -> None:
    board = Board("7/4l2/7/4c2/7/2p4/1M1L3 w 1")
    move = board.push_uci("b1d3f5")
    image = screenshot(browser, board._repr_svg_())
    margin = 20
    # The monkey now stands on f5 (a light disc), b1 is empty and highlighted in yellow.
    x, y = centre(congo.F5, margin=margin)
    assert is_light(image.pixel(x, y + 16))
    x, y = centre(congo.B1, margin=margin)
    assert is_highlight(image.pixel(x - 15, y - 15)), image.pixel(x - 15, y - 15)
    # The chain line runs through the middle of both legs (orange).
    path = move.path
    for a, b_ in zip(path, path[1:]):
        (x1, y1), (x2, y2) = centre(a, margin=margin), centre(b_, margin=margin)
        middle = image.pixel((x1 + x2) / 2, (y1 + y2) / 2)
        assert is_chain(middle), (congo.square_name(a), middle)
    # Coordinates are drawn in the dark margin: light text pixels beside rank 1.
    cy = centre(congo.A1, margin=margin)[1]
    area = [image.pixel(x, y) for x in range(2, margin - 2) for y in range(int(cy) - 6, int(cy) + 7)]
    assert any(min(p) > 150 for p in area)
    assert sum(max(p) < 80 for p in area) > len(area) // 2


def test_size_scales_the_image(browser: Browser) -> None:
    image = screenshot(browser, congo.svg.board(Board(), size=200))
    assert (image.width, image.height) == (200, 200)
