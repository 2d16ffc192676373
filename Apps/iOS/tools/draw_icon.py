"""Draws the app icon: Apps/iOS/ColdTap/Resources/Assets.xcassets/AppIcon.appiconset/AppIcon.png.

1024 x 1024, RGB without alpha (App Store validation refuses icons with an alpha channel):
a cold blue field, a thermometer with a low reading, and the NFC waves it is read by.
Run with a Python that has Pillow (the benchmark venv has it: .venv/bin/python).
"""
import os
from PIL import Image, ImageDraw

SIZE = 1024
SCALE = 4  # drawn large, then reduced, for smooth edges
S = SIZE * SCALE
HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "ColdTap", "Resources", "Assets.xcassets", "AppIcon.appiconset", "AppIcon.png")


def lerp(a, b, t):
    return tuple(round(a[i] + (b[i] - a[i]) * t) for i in range(3))


def main():
    image = Image.new("RGB", (S, S))
    draw = ImageDraw.Draw(image)
    top, bottom = (14, 60, 140), (30, 150, 230)
    for y in range(S):
        draw.line([(0, y), (S, y)], fill=lerp(top, bottom, y / (S - 1)))

    white = (255, 255, 255)
    ice = (120, 210, 255)
    # Thermometer: stem and bulb, left of centre.
    cx, stem_top, stem_bottom, stem_w = int(S * 0.40), int(S * 0.17), int(S * 0.66), int(S * 0.13)
    bulb_r = int(S * 0.13)
    bulb_cy = stem_bottom + int(bulb_r * 0.55)
    draw.rounded_rectangle([cx - stem_w // 2, stem_top, cx + stem_w // 2, stem_bottom], radius=stem_w // 2, fill=white)
    draw.ellipse([cx - bulb_r, bulb_cy - bulb_r, cx + bulb_r, bulb_cy + bulb_r], fill=white)
    # The reading: a low, cold column.
    inner_w = int(stem_w * 0.45)
    inner_r = int(bulb_r * 0.68)
    draw.rounded_rectangle([cx - inner_w // 2, int(S * 0.44), cx + inner_w // 2, bulb_cy], radius=inner_w // 2, fill=ice)
    draw.ellipse([cx - inner_r, bulb_cy - inner_r, cx + inner_r, bulb_cy + inner_r], fill=ice)
    # Scale marks.
    for i in range(5):
        y = int(S * 0.22) + i * int(S * 0.085)
        draw.line([(cx + stem_w // 2 + int(S * 0.015), y), (cx + stem_w // 2 + int(S * 0.055), y)], fill=white, width=int(S * 0.012))
    # NFC waves to the right.
    wx, wy = int(S * 0.60), int(S * 0.47)
    for i, radius in enumerate([0.10, 0.18, 0.26]):
        r = int(S * radius)
        width = int(S * 0.035)
        draw.arc([wx - r, wy - r, wx + r, wy + r], start=-48, end=48, fill=white, width=width)

    icon = image.resize((SIZE, SIZE), Image.LANCZOS)
    assert icon.mode == "RGB"
    icon.save(OUT, "PNG", optimize=True)
    print(f"wrote {os.path.normpath(OUT)} ({SIZE}x{SIZE}, {icon.mode})")


if __name__ == "__main__":
    main()
