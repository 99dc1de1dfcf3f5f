"""How a spec states the work of a job, the model's memory needs, and spot checkpointing.

Work can be given three ways (one per spec):
  - `gpu_hours` measured on a `reference` accelerator (e.g. 1,200 A100-80GB hours);
  - transformer `params` and `tokens`: training FLOPs = 6 x params x tokens (forward 2,
    backward 4 FLOPs per parameter and token; Kaplan et al. 2020, "Scaling Laws for Neural
    Language Models", sec. 2.1), at a stated model-FLOPs utilization `mfu`;
  - `images` x `epochs` x `flops_per_image` (training FLOPs per image), at `mfu`.
"""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import AwareDatetime, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from clouds.registry import CLOUDS, cloud
from clouds.reservation import ReservationConfig, ReservationKind
from profiles.spec import rules
from profiles.spec.fields import NUMBER
from profiles.spec.rules import known_provider
from profiles.spec.units import on_demand_after, parse_count

COUNT = BeforeValidator(rules.count)  # `7B`, `300B`, `1.28M`
HOURS = BeforeValidator(rules.hours_of)  # `1h`, `15m`
# YAML booleans and on/off words: off/false/no -> none, on/true/yes -> full.
CHECKPOINTING = BeforeValidator(rules.checkpointing)

__all__ = ["CommitmentSpec", "ModelSpec", "ReservationSpec", "SpotSpec", "WorkSpec", "known_provider"]

# Numbers must be finite: YAML `.inf` / `.nan` are refused rather than priced.
# defer_build: a model's validator is built on first use (nested in WorkloadSpec, once), which
# keeps `import` (and `trainstack resolve`) fast.
_FROZEN = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False, defer_build=True)


class WorkSpec(BaseModel):
    """The work of one training run.

    Attributes:
        gpu_hours: accelerator-hours measured on `reference`.
        reference: accelerator the gpu_hours were measured on (`A100-80GB`); one with a
            dense BF16 figure in `facts.performance`, any letter case.
        params: model parameters (`7B`).
        tokens: training tokens (`300B`).
        images: images per epoch (`1.28M`).
        epochs: passes over the images.
        flops_per_image: training FLOPs per image, forward and backward (`12.3G`).
        mfu: model-FLOPs utilization, 0-1 (T4/T5 in training-throughput.md: dense LLM
            training on A100 about 0.40-0.60, H100 0.38-0.47), as its source measured it.
        mfu_recompute: the recomputation the MFU's source ran with (`selective` by default:
            Megatron-LM's MFU table, T4, reports HFU 1-5 % above MFU, i.e. selective
            recomputation). A run that recomputes more (or less) is slower (or faster) by
            the ratio of hardware FLOPs; recomputation is never counted twice.
        mfu_attention: the c of the c x layers x seq_len x hidden attention FLOPs per token
            the MFU's source counted: `12` (default; Megatron-LM, torchtitan and MosaicML LLM
            Foundry count 12), `6` (Kaplan et al. 2020, the model's own count) or `0` (6 x
            params only). The model converts it to its own count (needs `model:`).
        mfu_reference: accelerator the `mfu` was measured on (default by `kind`: H100 for
            `llm`, A100-80GB for `cnn` and `bert`, `profiles.cost.calibration.MFU_REFERENCE`);
            other accelerators run at their calibrated speed relative to it.
        kind: workload class of the calibrated speeds (`llm`, `cnn`, `bert`); None: `cnn`
            for images, else `llm`.
        batch_tokens: global batch per optimizer step, tokens (`4M`); bounds the data-parallel
            width and sets how much compute hides each step's gradient all-reduce. None:
            `profiles.cost.inputs.DEFAULT_BATCH_TOKENS`.
        batch_images: global batch per optimizer step for work given as images; bounds the
            data-parallel width. None: `profiles.cost.inputs.DEFAULT_BATCH_IMAGES`.
    """

    model_config = _FROZEN
    EXAMPLE: ClassVar[str] = "{gpu_hours: 1200, reference: A100-80GB}"

    gpu_hours: Annotated[float | None, NUMBER] = Field(
        default=None, gt=0, description="Accelerator-hours on `reference`."
    )
    reference: Annotated[str | None, BeforeValidator(rules.reference)] = Field(
        default=None, description="Accelerator of the gpu_hours."
    )
    params: Annotated[float | None, COUNT] = Field(default=None, gt=0, description="Model parameters.")
    tokens: Annotated[float | None, COUNT] = Field(default=None, gt=0, description="Training tokens.")
    images: Annotated[float | None, COUNT] = Field(default=None, gt=0, description="Images per epoch.")
    epochs: Annotated[float | None, NUMBER] = Field(default=None, gt=0, description="Epochs.")
    flops_per_image: Annotated[float | None, COUNT] = Field(default=None, gt=0, description="Training FLOPs per image.")
    mfu: Annotated[float | None, NUMBER] = Field(
        default=None, gt=0, le=1, description="Model-FLOPs utilization, 0-1.", examples=[0.4]
    )
    mfu_recompute: Literal["none", "selective", "full"] = Field(
        default="selective", description="Recompute of the MFU source."
    )
    mfu_attention: Annotated[Literal["12", "6", "0"], BeforeValidator(rules.attention_count)] = Field(
        default="12", description="Attention FLOPs convention of the MFU (c of c.L.s.h)."
    )
    mfu_reference: Annotated[str | None, BeforeValidator(rules.reference)] = Field(
        default=None, description="Accelerator the MFU was measured on."
    )
    kind: Literal["llm", "cnn", "bert"] | None = Field(default=None, description="Workload class.")
    batch_tokens: Annotated[float | None, COUNT] = Field(
        default=None, gt=0, description="Global batch per step, tokens."
    )
    batch_images: Annotated[float | None, COUNT] = Field(
        default=None, gt=0, description="Global batch per step, images."
    )

    @model_validator(mode="after")
    def _one_way(self) -> WorkSpec:
        rules.check_work(self)
        return self

    def training_flops(self) -> float | None:
        """Total training FLOPs, or None when the work is given as gpu_hours."""
        return rules.training_flops(self)


class ModelSpec(BaseModel):
    """A transformer's shape, for the memory-fit check.

    Attributes:
        params: parameters (`70B`).
        layers, hidden, heads: transformer layers, hidden size, attention heads.
        seq_len: tokens per sequence.
        micro_batch: sequences per GPU per step.
        bytes_per_param: bytes of weights, gradients and optimizer state per parameter
            (16 for mixed-precision Adam: 2 BF16 weights + 2 gradients + 12 FP32 master
            weights, momentum and variance; Rajbhandari et al. 2020, ZeRO, sec. 3.1).
        sharding: `fsdp` shards those states over every GPU (FSDP / ZeRO-3); `none` keeps
            a full copy per GPU.
        gradient_checkpointing: `none`, `selective` (recompute only attention, Korthikanti
            et al. 2022 sec. 5), `full` (keep each layer's input, recompute the rest), or
            `auto` (the least recomputation that fits). YAML `off`/`false`/`no` read as
            `none`, `on`/`true`/`yes` as `full`.
        attention: `flash` (FlashAttention-style: the s x s scores are never stored, the
            default) or `standard` (scores kept for backward, Korthikanti eq. 1).
    """

    model_config = _FROZEN
    EXAMPLE: ClassVar[str] = "{params: 13B, layers: 40, hidden: 5120, heads: 40, seq_len: 4096}"

    params: Annotated[float, BeforeValidator(parse_count)] = Field(gt=0, description="Parameters.")
    layers: Annotated[int, NUMBER] = Field(ge=1, description="Transformer layers.")
    hidden: Annotated[int, NUMBER] = Field(ge=1, description="Hidden size.")
    heads: Annotated[int, NUMBER] = Field(ge=1, description="Attention heads.")
    seq_len: Annotated[int, NUMBER] = Field(ge=1, description="Tokens per sequence.")
    micro_batch: Annotated[int, NUMBER] = Field(default=1, ge=1, description="Sequences per GPU per step.")
    bytes_per_param: Annotated[float, NUMBER] = Field(default=16, gt=0, description="Bytes per parameter of state.")
    sharding: Literal["fsdp", "none"] = Field(default="fsdp", description="State sharding.")
    gradient_checkpointing: Annotated[Literal["auto", "none", "selective", "full"], CHECKPOINTING] = Field(
        default="auto", description="Recompute."
    )
    attention: Literal["flash", "standard"] = Field(default="flash", description="Attention kernel.")


class SpotSpec(BaseModel):
    """How a job survives spot interruptions.

    Attributes:
        checkpoint_interval_hours: hours between checkpoints (`1h`); on average half of it
            is lost per interruption.
        restart_hours: hours to get a replacement node and reload the checkpoint (`15m`);
            None uses the cloud's figure in `profiles.cost.inputs.RESTART_HOURS`.
        interruptions_per_node_month: expected interruptions of one node per month (730 h);
            None uses the per-cloud, per-family default in `profiles.cost.inputs` (a
            labelled assumption where no published figure exists).
        on_demand_after_hours: `fallback: on-demand after 30m`: hours a spot cluster's group may
            stay below size before on-demand nodes of the same shape fill the gap (the stack's
            `on_demand_after_minutes`, `clouds.capacity`); None: spot only.
    """

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True, allow_inf_nan=False, defer_build=True)
    EXAMPLE: ClassVar[str] = "{checkpoint_interval: 1h, restart: 20m}"

    checkpoint_interval_hours: Annotated[float, HOURS] = Field(
        alias="checkpoint_interval", gt=0, description="Time between checkpoints, hours.", examples=["1h"]
    )
    restart_hours: Annotated[float | None, HOURS] = Field(
        default=None, alias="restart", ge=0, description="Time to replace a node and reload, hours.", examples=["20m"]
    )
    interruptions_per_node_month: Annotated[float | None, NUMBER] = Field(
        default=None, ge=0, description="Interruptions of one node per month (730 h)."
    )
    on_demand_after_hours: Annotated[float | None, BeforeValidator(on_demand_after)] = Field(
        default=None,
        alias="fallback",
        gt=0,
        description="Hours below size before on-demand fills the gap.",
        examples=["on-demand after 30m"],
    )


class CommitmentSpec(BaseModel):
    """A reserved term (reserved instances, savings plan, committed-use discount) the job buys.

    Attributes:
        term: `1y` or `3y`.
        reuse: fraction (0-1) of the term left after the job that other work will use; the
            job pays for the rest. 0 (default): the job pays the whole term.
    """

    model_config = _FROZEN
    EXAMPLE: ClassVar[str] = "{term: 1y, reuse: 0.8}"

    term: Literal["1y", "3y"] = Field(description="Term length.")
    reuse: Annotated[float, BeforeValidator(rules.share)] = Field(
        default=0.0, ge=0, le=1, description="Fraction of the rest of the term used by other work.", examples=[0.8]
    )


class ReservationSpec(BaseModel):
    """Capacity you already hold (an EC2 capacity reservation, a Capacity Block, an Azure
    capacity reservation, a GCP reservation) for the resolver to price as given.

    Attributes:
        provider: cloud name, one of the catalog's (`AWS` reads as `aws`).
        instance_type: instance type reserved.
        zone: zone of the reservation (AWS: availability-zone ID).
        nodes: instances reserved.
        usd_per_hour: price per instance per hour still to pay (0 when prepaid, e.g. a
            Capacity Block's up-front fee).
        id: the reservation id to launch into (AWS: `cr-...`, or for a capacity
            reservation a Capacity Reservation resource group ARN; GCP: its name).
        kind: `capacity-reservation` (targeted On-Demand Capacity Reservation, GCP
            reservation) or `capacity-block` (AWS Capacity Block for ML, paid up front per
            block: give `usd_per_hour: 0`, or the block's fee spread over its hours).
        placement_group: the existing cluster placement group the reservation was made in
            (the cluster then launches into it and creates none), or None.
        ends: a Capacity Block's end time (timezone-aware): the cluster scales to zero
            before it; None otherwise.
    """

    model_config = _FROZEN
    # The first registered cloud's example reservation (`Cloud.reservation_example`).
    EXAMPLE: ClassVar[str] = next(c.reservation_example for c in CLOUDS.values() if c.reservation_example)

    provider: Annotated[str, BeforeValidator(known_provider)] = Field(description="Cloud name.")
    instance_type: str = Field(description="Instance type.")
    zone: str = Field(description="Zone (AWS: AZ ID).")
    nodes: Annotated[int, NUMBER] = Field(ge=1, description="Instances reserved.")
    usd_per_hour: Annotated[float, NUMBER] = Field(ge=0, description="USD per instance-hour still to pay.")
    id: str = Field(min_length=1, pattern=r"^\S+$", description="Reservation id.")
    kind: ReservationKind = Field(default="capacity-reservation", description="Reservation kind.")
    placement_group: str | None = Field(
        default=None, min_length=1, pattern=r"^\S+$", description="Existing placement group of the reservation."
    )
    ends: AwareDatetime | None = Field(default=None, description="End time of a Capacity Block, ISO 8601 with a zone.")

    def model_post_init(self, __context: object) -> None:
        if self.kind == "capacity-block" and self.kind not in cloud(self.provider).reservation_kinds:
            sellers = [c for c in CLOUDS.values() if self.kind in c.reservation_kinds]
            raise ValueError(
                f"kind: capacity-block is an {'/'.join(c.display_name for c in sellers)} Capacity Block for ML, "
                f"not {self.provider} capacity; set kind: capacity-reservation or provider: "
                f"{' or '.join(c.name for c in sellers)}"
            )
        if self.ends is not None and self.kind != "capacity-block":
            raise ValueError("ends: only a Capacity Block ends by itself; remove ends or set kind: capacity-block")

    def config(self) -> ReservationConfig:
        """The stack's `reservation:` for this held capacity (kind, id, placement group, size, zone)."""
        return ReservationConfig(**{name: getattr(self, name) for name in ReservationConfig.model_fields})
