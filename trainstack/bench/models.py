"""ResNet-50 and ViT-B/16 in plain PyTorch (no torchvision), for the throughput benchmark.

ResNet-50 is He et al. 2015 ("Deep Residual Learning", table 1, 50-layer column) with the
v1.5 stride on the 3x3 convolution, as NVIDIA DeepLearningExamples trains it. ViT-B/16 is
Dosovitskiy et al. 2020 ("An Image is Worth 16x16 Words", table 1, ViT-Base: 12 layers,
hidden 768, MLP 3072, 12 heads, patch 16). `width` and `image_size` shrink both for tests;
the defaults are the published shapes. Requires torch (`pip install 'trainstack[torch]'`).
"""

from __future__ import annotations

import torch
from torch import nn

MODELS = ("resnet50", "vit_b16")


class Bottleneck(nn.Module):
    """1x1 -> 3x3 (stride here, v1.5) -> 1x1 with a projection shortcut when the shape changes."""

    expansion = 4

    def __init__(self, inputs: int, planes: int, stride: int) -> None:
        super().__init__()
        out = planes * self.expansion
        self.body = nn.Sequential(
            nn.Conv2d(inputs, planes, 1, bias=False),
            nn.BatchNorm2d(planes),
            nn.ReLU(inplace=True),
            nn.Conv2d(planes, planes, 3, stride, 1, bias=False),
            nn.BatchNorm2d(planes),
            nn.ReLU(inplace=True),
            nn.Conv2d(planes, out, 1, bias=False),
            nn.BatchNorm2d(out),
        )
        self.shortcut = (
            nn.Identity()
            if stride == 1 and inputs == out
            else nn.Sequential(nn.Conv2d(inputs, out, 1, stride, bias=False), nn.BatchNorm2d(out))
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.body(x) + self.shortcut(x))


class ResNet50(nn.Module):
    """ResNet-50: stages of 3, 4, 6, 3 bottlenecks; `width` base channels (64 published)."""

    def __init__(self, classes: int = 1000, width: int = 64) -> None:
        super().__init__()
        layers: list[nn.Module] = [
            nn.Conv2d(3, width, 7, 2, 3, bias=False),
            nn.BatchNorm2d(width),
            nn.ReLU(inplace=True),
            nn.MaxPool2d(3, 2, 1),
        ]
        inputs = width
        for stage, blocks in enumerate((3, 4, 6, 3)):
            planes = width * 2**stage
            for block in range(blocks):
                layers.append(Bottleneck(inputs, planes, 2 if block == 0 and stage > 0 else 1))
                inputs = planes * Bottleneck.expansion
        self.features = nn.Sequential(*layers)
        self.head = nn.Linear(inputs, classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.head(torch.flatten(nn.functional.adaptive_avg_pool2d(self.features(x), 1), 1))


class ViT(nn.Module):
    """Vision Transformer: patch embedding, class token, pre-norm encoder, linear head."""

    def __init__(
        self,
        image_size: int = 224,
        patch: int = 16,
        hidden: int = 768,
        layers: int = 12,
        heads: int = 12,
        mlp: int = 3072,
        classes: int = 1000,
    ) -> None:
        super().__init__()
        self.embed = nn.Conv2d(3, hidden, patch, patch)
        tokens = (image_size // patch) ** 2 + 1
        self.cls = nn.Parameter(torch.zeros(1, 1, hidden))
        self.position = nn.Parameter(torch.randn(1, tokens, hidden) * 0.02)
        layer = nn.TransformerEncoderLayer(
            hidden, heads, mlp, dropout=0.0, activation="gelu", batch_first=True, norm_first=True
        )
        self.encoder = nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(hidden)
        self.head = nn.Linear(hidden, classes)
        self.shape = (image_size, patch, hidden, layers, mlp, classes)

    def forward_flops(self) -> float:
        """Forward FLOPs per image (2 per multiply-add): patch embedding, per layer the Q/K/V
        and output projections (4 h^2 per token), attention scores and their weighted sum
        (2 T^2 h), the MLP (2 h m per token), and the head."""
        image_size, patch, hidden, layers, mlp, classes = self.shape
        patches = (image_size // patch) ** 2
        tokens = patches + 1
        per_layer = tokens * (4 * hidden**2 + 2 * hidden * mlp) + 2 * tokens**2 * hidden
        return 2.0 * (patches * 3 * patch**2 * hidden + layers * per_layer + hidden * classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.position
        return self.head(self.norm(self.encoder(x))[:, 0])


def build(name: str, image_size: int = 224, width: int = 64, classes: int = 1000) -> nn.Module:
    """The benchmark model `name` (`resnet50` or `vit_b16`).

    `width` scales ResNet's base channels (64 published) and ViT's hidden size
    (768 x width / 64), so tiny test runs keep the architecture.

    Raises:
        ValueError: an unknown model name.
    """
    if name == "resnet50":
        return ResNet50(classes, width)
    if name == "vit_b16":
        scale = width / 64
        hidden = max(12, int(768 * scale) // 12 * 12)
        return ViT(image_size, 16, hidden, 12, 12, max(4 * 12, int(3072 * scale)), classes)
    raise ValueError(f"model: '{name}' is not one of {', '.join(MODELS)}")


def training_flops_per_image(model: nn.Module, image_size: int) -> float:
    """Training FLOPs per image: 3 x the forward FLOPs (backward ~ 2 x forward, Kaplan et al.
    2020 sec. 2.1), for one image of `image_size` pixels square. ViT's are counted from its
    shape (torch's counter misses the CPU attention kernel); ResNet's by torch's FLOP counter.
    Published shapes: ResNet-50 at 224 px 24.5 GFLOPs, ViT-B/16 105 GFLOPs."""
    if isinstance(model, ViT):
        return 3.0 * model.forward_flops()
    from torch.utils.flop_counter import FlopCounterMode

    # Counted in training mode: in eval mode PyTorch's fused transformer fast path hides the
    # attention and MLP matmuls from the counter. Two images keep BatchNorm's statistics defined.
    was_training = model.training
    model.train()
    with torch.no_grad(), FlopCounterMode(display=False) as counter:
        model(torch.zeros(2, 3, image_size, image_size))
    model.train(was_training)
    return 3.0 * counter.get_total_flops() / 2
