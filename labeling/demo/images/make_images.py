"""Regenerate the multimodal demo's figures: `.venv/bin/python labeling/demo/images/make_images.py`.

Small palette PNGs (a few KB each) drawn with matplotlib; the numbers match
labeling/demo/multimodal_demo.jsonl.
"""

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402

HERE = Path(__file__).resolve().parent


def save(fig, name: str) -> None:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=100)
    plt.close(fig)
    image = Image.open(buffer).convert("RGB").quantize(colors=32)
    image.save(HERE / name, optimize=True)


def rainfall() -> None:
    months = ["Mar", "Apr", "May", "Jun", "Jul"]
    mm = [62, 48, 71, 39, 55]
    fig, ax = plt.subplots(figsize=(4.2, 2.8))
    bars = ax.bar(months, mm, color="#4f46e5")
    ax.bar_label(bars, fontsize=8)
    ax.set_ylabel("rainfall (mm)")
    ax.set_title("Monthly rainfall, Bergen weather station", fontsize=9)
    ax.set_ylim(0, 85)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    save(fig, "rainfall.png")


def triangle(name: str, altitude: bool) -> None:
    fig, ax = plt.subplots(figsize=(3.4, 2.8))
    ax.plot([0, 8, 0, 0], [0, 0, 6, 0], color="#111827", linewidth=2)
    ax.plot([0, 0.6, 0.6], [0.6, 0.6, 0], color="#111827", linewidth=1)
    ax.text(4, -0.7, "8 cm", ha="center", fontsize=9)
    ax.text(-0.9, 3, "6 cm", va="center", fontsize=9)
    ax.text(4.4, 3.4, "c", fontsize=11, style="italic")
    for (x, y), label in (((-0.4, -0.5), "A"), ((8.2, -0.5), "B"), ((-0.5, 6.1), "C")):
        ax.text(x, y, label, fontsize=10, fontweight="bold")
    if altitude:
        # Foot of the altitude from A onto BC.
        fx, fy = 8 * 36 / 100, 6 * 64 / 100
        ax.plot([0, fx], [0, fy], color="#dc2626", linewidth=1.5, linestyle="--")
        ax.text(fx / 2 + 0.2, fy / 2 - 0.5, "h", color="#dc2626", fontsize=11, style="italic")
    ax.set_xlim(-1.5, 9.5)
    ax.set_ylim(-1.5, 7)
    ax.set_aspect("equal")
    ax.axis("off")
    fig.tight_layout()
    save(fig, name)


def sales() -> None:
    fig, ax = plt.subplots(figsize=(4.2, 2.8))
    weeks = [1, 2, 3, 4, 5, 6]
    units = [120, 135, 150, 150, 180, 210]
    ax.plot(weeks, units, marker="o", color="#16a34a")
    for x, y in zip(weeks, units, strict=True):
        ax.annotate(
            str(y), (x, y), textcoords="offset points", xytext=(0, 6), ha="center", fontsize=8
        )
    ax.set_xlabel("week")
    ax.set_ylabel("units sold")
    ax.set_title("Weekly sales of the new kettle", fontsize=9)
    ax.set_ylim(100, 230)
    ax.spines[["top", "right"]].set_visible(False)
    fig.tight_layout()
    save(fig, "sales.png")


if __name__ == "__main__":
    rainfall()
    triangle("triangle.png", altitude=False)
    triangle("triangle_altitude.png", altitude=True)
    sales()
