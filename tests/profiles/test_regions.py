import pytest

from clouds.regions import in_mainland_china


@pytest.mark.parametrize(
    ("provider", "region", "mainland"),
    [
        ("alicloud", "cn-beijing", True),
        ("alicloud", "cn-wulanchabu", True),
        ("alicloud", "cn-hongkong", False),
        ("alicloud", "ap-southeast-1", False),
        ("tencentcloud", "ap-shanghai", True),
        ("tencentcloud", "ap-hongkong", False),
        ("huaweicloud", "cn-north-4", True),
        ("huaweicloud", "ap-southeast-1", False),
        ("volcengine", "cn-beijing", True),
        ("baiducloud", "bj", True),
        ("baiducloud", "hkg", False),
        ("aws", "cn-north-1", True),
        ("aws", "us-east-1", False),
        ("gcp", "asia-east1", False),
        ("volcengine", "cn-hongkong", False),
        ("volcengine", "cn-shanghai", True),
        ("tencentcloud", "ap-shenzhen-fsi", True),
        ("tencentcloud", "ap-shanghai-fsi", True),
    ],
)
def test_mainland_regions(provider, region, mainland):
    assert in_mainland_china(provider, region) is mainland
