"""Regenerate the embodied demo's camera frames:
`.venv/bin/python labeling/demo/images/make_embodied_frames.py`.

Schematic side views of a tabletop robot cell (table, drawer, sink, fridge shelf, gripper), one
per logged frame of labeling/demo/embodied_demo.jsonl; small palette PNGs drawn with
matplotlib, like make_images.py's figures. They stand in for a wrist or scene camera: what
each frame shows matches the step it is attached to (the mug slipping, the drawer closed...).
"""

import io
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, FancyBboxPatch, Rectangle  # noqa: E402
from PIL import Image  # noqa: E402

HERE = Path(__file__).resolve().parent
WOOD, METAL, MUG, APPLE, CUP = "#c8a27a", "#9ca3af", "#4f46e5", "#dc2626", "#0ea5e9"


def save(fig, name: str) -> None:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=80)
    plt.close(fig)
    Image.open(buffer).convert("RGB").quantize(colors=32).save(HERE / name, optimize=True)


def cell(title: str):
    fig, ax = plt.subplots(figsize=(4.0, 2.6))
    ax.set_xlim(0, 10)
    ax.set_ylim(0, 6.5)
    ax.set_aspect("equal")
    ax.axis("off")
    ax.add_patch(Rectangle((0.3, 2.0), 6.2, 0.25, color=WOOD))  # table top
    for x in (0.6, 6.0):
        ax.add_patch(Rectangle((x, 0.2), 0.2, 1.8, color=WOOD))
    ax.set_title(title, fontsize=8.5)
    return fig, ax


def drawer(ax, opened: bool) -> None:
    x = 3.6 if not opened else 4.6
    ax.add_patch(Rectangle((x, 1.2), 2.2, 0.75, facecolor="#e7d3bd", edgecolor="#7c5c3b"))
    ax.add_patch(Rectangle((x + 0.9, 1.5), 0.4, 0.12, color="#7c5c3b"))
    ax.text(x + 1.1, 0.9, "drawer (open)" if opened else "drawer (closed)", ha="center", fontsize=7)


def gripper(ax, x: float, y: float, closed: bool) -> None:
    ax.add_patch(Rectangle((x - 0.1, y + 0.6), 0.2, 6.5 - y - 0.6, color=METAL))
    gap = 0.25 if closed else 0.55
    for side in (-1, 1):
        ax.add_patch(Rectangle((x + side * gap - 0.06, y), 0.12, 0.6, color="#4b5563"))


def mug(ax, x: float, y: float) -> None:
    ax.add_patch(FancyBboxPatch((x - 0.3, y), 0.6, 0.6, boxstyle="round,pad=0.02", color=MUG))
    ax.add_patch(Rectangle((x + 0.3, y + 0.2), 0.15, 0.22, color=MUG))


def frames() -> None:
    fig, ax = cell("t=0.0 s  scene camera: mug on the table")
    drawer(ax, False)
    mug(ax, 1.8, 2.25)
    gripper(ax, 1.8, 4.2, False)
    save(fig, "emb_mug_start.png")

    fig, ax = cell("t=6.1 s  wrist camera: grasp closed on the mug")
    drawer(ax, False)
    mug(ax, 1.8, 2.6)
    gripper(ax, 1.85, 2.65, True)
    save(fig, "emb_mug_grasped.png")

    fig, ax = cell("t=7.4 s  wrist camera: the mug slipped")
    drawer(ax, False)
    mug(ax, 2.3, 2.25)
    gripper(ax, 1.85, 3.4, True)
    ax.annotate(
        "slip",
        (2.3, 2.9),
        (3.1, 3.9),
        fontsize=8,
        color="#dc2626",
        arrowprops={"arrowstyle": "->", "color": "#dc2626"},
    )
    save(fig, "emb_mug_slipped.png")

    fig, ax = cell("t=19.8 s  scene camera: drawer still closed")
    drawer(ax, False)
    gripper(ax, 4.7, 2.7, True)
    mug(ax, 4.7, 2.68)
    save(fig, "emb_drawer_closed.png")

    fig, ax = cell("t=14.2 s  scene camera: mug inside the open drawer")
    drawer(ax, True)
    mug(ax, 5.7, 1.35)
    gripper(ax, 5.7, 3.6, False)
    save(fig, "emb_mug_in_drawer.png")

    fig, ax = cell("t=21.0 s  scene camera: apple on the floor")
    ax.add_patch(Rectangle((7.0, 0.2), 2.6, 5.8, facecolor="#f3f4f6", edgecolor="#6b7280"))
    ax.add_patch(Rectangle((7.0, 3.0), 2.6, 0.12, color="#6b7280"))
    ax.text(8.3, 5.5, "fridge shelf", ha="center", fontsize=7)
    ax.add_patch(Circle((7.6, 0.45), 0.28, color=APPLE))
    gripper(ax, 8.2, 3.8, False)
    save(fig, "emb_apple_floor.png")

    fig, ax = cell("t=3.3 s  scene camera: cup in the sink")
    ax.add_patch(Rectangle((1.2, 1.5), 2.8, 0.75, facecolor="#e5e7eb", edgecolor="#6b7280"))
    ax.text(2.6, 1.1, "sink", ha="center", fontsize=7)
    ax.add_patch(Rectangle((2.3, 1.6), 0.5, 0.65, color=CUP))
    gripper(ax, 2.55, 3.6, False)
    save(fig, "emb_cup_sink.png")


if __name__ == "__main__":
    frames()
