"""The benchmark's input: many small image files in a directory, or synthetic tensors.

`write_images` makes a data set of random-pixel JPEG files (no data set can be fetched by
the kit; point `--dir` at your own ImageNet-style folder to measure it instead).
`ImageFiles` reads them the way a training data loader does: open, decode, resize, to a
tensor. Run as `python -m trainstack.bench.data DIR --count N --size PIXELS`.
"""

from __future__ import annotations

import argparse
import zlib
from pathlib import Path

import numpy as np
import torch
from torch.utils.data import Dataset

from trainstack.bench.fsread import image_files


def write_images(directory: Path, count: int, size: int, seed: int = 0) -> int:
    """Write `count` random-pixel JPEG files of `size` x `size` into `directory` (kept if present).

    Returns:
        The number of files written (files already there are not rewritten).
    """
    from PIL import Image

    directory.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(seed)
    written = 0
    for index in range(count):
        path = directory / f"{index // 1000:04d}" / f"img{index:07d}.jpg"
        if path.exists():
            continue
        path.parent.mkdir(exist_ok=True)
        pixels = rng.integers(0, 256, (size, size, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(path, quality=90)
        written += 1
    return written


class ImageFiles(Dataset):
    """Decoded, resized images from files, with a label derived from the file name."""

    def __init__(self, directory: Path, image_size: int, classes: int = 1000) -> None:
        self.files = image_files(directory)
        if not self.files:
            raise ValueError(
                f"--dir {directory}: no .jpg/.png files; make some with "
                f"`python -m trainstack.bench.data {directory} --count 20000`"
            )
        self.image_size, self.classes = image_size, classes

    def __len__(self) -> int:
        return len(self.files)

    def __getitem__(self, index: int) -> tuple[torch.Tensor, int]:
        from PIL import Image

        path = self.files[index]
        with Image.open(path) as image:
            pixels = np.asarray(image.convert("RGB").resize((self.image_size, self.image_size)), dtype=np.float32)
        tensor = torch.from_numpy(pixels).permute(2, 0, 1).div_(255.0)
        return tensor, zlib.crc32(path.name.encode()) % self.classes


def main() -> None:
    parser = argparse.ArgumentParser(description="Write random-pixel JPEG files for the data-loader benchmark.")
    parser.add_argument("dir", type=Path)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--size", type=int, default=256, help="pixels per side")
    args = parser.parse_args()
    print(f"wrote {write_images(args.dir, args.count, args.size)} files in {args.dir}")


if __name__ == "__main__":
    main()
