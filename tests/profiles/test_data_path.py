"""Data-path sizing with hand-computed values."""

from __future__ import annotations

import pytest

from profiles.data_path import sizing as dp


def test_checkpoints_hold_16_bytes_per_parameter_twice():
    # 13e9 params x 16 B x 2 kept / 2^30 = 387.43 GiB
    assert dp.checkpoint_gib(13e9) == pytest.approx(387.4302, abs=1e-3)
    assert dp.checkpoint_gib(1e9, kept=1) == pytest.approx(14.9012, abs=1e-3)


def test_capacity_adds_checkpoints_and_headroom():
    # (2,048 + 387.43) x 1.25 = 3,044.29 GiB
    assert dp.capacity_gib(2048, 387.43) == pytest.approx(3044.2875)
    assert dp.capacity_gib(100, 0, headroom=0) == 100


@pytest.mark.parametrize(
    ("files", "mean_mib", "expected"),
    [
        pytest.param(1_280_000, None, 2048 * 2**30 / 1_280_000, id="from-file-count"),
        pytest.param(None, 0.5, 524_288, id="given-mean-wins"),
        pytest.param(1_280_000, 0.5, 524_288, id="mean-over-count"),
        pytest.param(None, None, None, id="unknown"),
    ],
)
def test_mean_file_bytes(files, mean_mib, expected):
    assert dp.mean_file_bytes(2048, files, mean_mib) == expected


def test_read_rate_and_per_tib_need():
    assert dp.read_rate_mbps(3000, 110_000) == pytest.approx(330.0)  # 3,000 img/s x 110 kB
    assert dp.throughput_per_tib_needed(330, 2400) == pytest.approx(140.8)  # 330 / (2,400/1,024)


def test_a_file_system_too_slow_for_the_gpus_says_what_would_feed_them():
    # 140 GiB of data, no checkpoints, 2,400 GiB at 125 MB/s per TiB, GPUs reading 330 MB/s
    path = dp.size_data_path(140, 0, 2400, 125, read_mbps=330, local_nvme_gib=7450, lazy_link=True)
    assert path.provisioned_mbps == pytest.approx(292.96875)  # 2,400/1,024 x 125
    assert path.starves_gpus
    assert path.staging_hours == 0 and path.cache_fits
    # 140 GiB = 150,323.9 MB at 292.97 MB/s = 513.1 s = 0.14253 h per pass; 90 passes over 10 h
    # of compute: with the cache only pass one waits: 10 + (0.14253 - 10/90) = 10.03142 h
    assert path.hours_with_io(10, 140, 90) == pytest.approx(10 + 140 * 2**30 / 1e6 / 292.96875 / 3600 - 10 / 90)
    assert path.hours_with_io(10, 140, 90) == pytest.approx(10.03142, abs=1e-5)
    assert dp.describe(path, 0.03142) == (
        "data: GPUs can read 330 MB/s, the file system delivers 293 MB/s; /scratch caches the dataset after the first pass",
        "data: the first pass is I/O bound: +0.03 h; more file_system.throughput (MB/s per TiB) or capacity feeds the GPUs",
    )


def test_without_the_cache_every_pass_reads_the_file_system():
    path = dp.size_data_path(140, 0, 2400, 125, read_mbps=330, local_nvme_gib=None, lazy_link=True)
    # 90 passes x 0.14253 h = 12.828 h > 10 h of compute: the job is I/O bound
    assert path.hours_with_io(10, 140, 90) == pytest.approx(90 * 140 * 2**30 / 1e6 / 292.96875 / 3600)
    assert path.hours_with_io(20, 140, 90) == 20  # compute-bound: reads keep up on average
    assert "the job is I/O bound" in dp.describe(path, 2.83)[1]


def test_a_file_system_fast_enough_adds_nothing():
    path = dp.size_data_path(140, 0, 2400, 250, read_mbps=330, local_nvme_gib=None, lazy_link=True)
    assert not path.starves_gpus and path.hours_with_io(10, 140, 90) == 10
    assert dp.describe(path) == ("data: GPUs can read 330 MB/s, the file system delivers 586 MB/s",)


def test_an_import_link_stages_at_the_provisioned_throughput():
    # 2,048 GiB = 2,199,023 MB at 2,400/1,024 x 250 = 585.9375 MB/s -> 3,753 s = 1.0425 h
    path = dp.size_data_path(2048, 0, 2400, 250, read_mbps=None, local_nvme_gib=None, lazy_link=False)
    assert path.staging_hours == pytest.approx(2048 * 2**30 / 1e6 / 585.9375 / 3600)
    assert path.staging_hours == pytest.approx(1.0425, abs=1e-4)
    assert not path.starves_gpus and not path.cache_fits
    assert dp.describe(path)[-1] == "data: +1.04 h to import the dataset before training"


def test_cache_fits_only_when_the_whole_dataset_fits_on_one_node():
    fits = dp.size_data_path(1000, 0, 1200, 250, None, local_nvme_gib=1000, lazy_link=True)
    too_big = dp.size_data_path(1001, 0, 1200, 250, None, local_nvme_gib=1000, lazy_link=True)
    assert fits.cache_fits and not too_big.cache_fits


def test_row_read_rate_is_the_data_over_the_compute_hours():
    # 2,048 GiB x 90 passes / 100 h = 2,199,023 MB x 90 / 360,000 s = 549.76 MB/s
    path = dp.row_data_path(2048, 90, 13e9, 4800, 250, 100, None, lazy_link=True)
    assert path.read_mbps == pytest.approx(2048 * 2**30 / 1e6 * 90 / 360_000)
    assert path.capacity_gib == pytest.approx((2048 + dp.checkpoint_gib(13e9)) * 1.25)
    assert path.provisioned_mbps == pytest.approx(4800 / 1024 * 250)  # 1,171.875 MB/s


PASS_140 = 140 * 2**30 / 1e6 / 292.96875 / 3600  # hours of one uncached pass over 140 GiB


@pytest.mark.parametrize(
    ("passes", "hours"),
    [
        # 140 GiB at 292.97 MB/s (2,400 GiB x 125 MB/s/TiB) = 0.1425293 h per pass, no cache
        pytest.param(0.5, 0.5 * PASS_140, id="half-a-pass"),
        pytest.param(1.5, 1.5 * PASS_140, id="a-pass-and-a-half"),
        pytest.param(3.0, 3.0 * PASS_140, id="three-passes"),
    ],
)
def test_fractional_passes_read_their_share_of_the_data(passes, hours):
    path = dp.size_data_path(140, 0, 2400, 125, read_mbps=330, local_nvme_gib=None, lazy_link=True)
    assert path.hours_with_io(0.01, 140, passes) == pytest.approx(hours, rel=1e-5)


@pytest.mark.parametrize(
    ("lazy", "staging_how", "first_pass_mbps", "staging_hours"),
    [
        # a lazy link loads on first read: nothing staged, the link's own first-pass bound kept
        pytest.param(True, "", 100.0, 0.0, id="lazy-link"),
        # a copy: 140 GiB at the 292.97 MB/s the file system writes, said how; no first-pass bound
        pytest.param(False, "DataSync", None, 140 * 2**30 / 1e6 / 292.96875 / 3600, id="copied-in"),
    ],
)
def test_a_lazy_link_stages_nothing_and_a_copy_says_how(lazy, staging_how, first_pass_mbps, staging_hours):
    path = dp.size_data_path(
        140, 0, 2400, 125, None, None, lazy_link=lazy, staging_how="DataSync", first_pass_mbps=100.0
    )
    assert (path.staging_how, path.first_pass_mbps) == (staging_how, first_pass_mbps)
    assert path.staging_hours == pytest.approx(staging_hours)


@pytest.mark.parametrize(
    ("data", "params", "capacity"),
    [
        # (1,000 GiB + no checkpoints) x 1.25 = 1,250 GiB exactly
        pytest.param({"size": "1000GiB"}, None, "1250GiB", id="data-only"),
        # 1,001 x 1.25 = 1,251.25 GiB, rounded up to a whole GiB
        pytest.param({"size": "1001GiB"}, None, "1252GiB", id="rounded-up"),
        # 2 checkpoints of 7e9 x 16 bytes = 208.62 GiB: (1,001 + 208.62) x 1.25 = 1,512.02 -> 1,513 GiB
        pytest.param({"size": "1001GiB"}, "7B", "1513GiB", id="with-checkpoints"),
        pytest.param({"size": "1000GiB"}, 7e9, "1511GiB", id="params-as-a-number"),
    ],
)
def test_a_file_system_sized_from_data_holds_it_and_two_checkpoints(data, params, capacity):
    from profiles.data_path.spec import sized_file_system

    assert sized_file_system(data, params) == {"capacity": capacity}


@pytest.mark.parametrize(
    ("data", "params"),
    [({}, "7B"), ({"size": "lots"}, None), ({"size": "1000GiB"}, "many")],
    ids=["no-size", "bad-size", "bad-params"],
)
def test_no_readable_size_sizes_no_file_system(data, params):
    from profiles.data_path.spec import sized_file_system

    assert sized_file_system(data, params) is None
