"""The China clouds' fetchers load their official SDKs only when they call them, and a missing
SDK is a one-line error naming the API and the extra to install."""

from __future__ import annotations

import subprocess
import sys

import pytest
from recorded_pages import FIXTURES

from profiles.catalog.fetchers import FetchError, alicloud, baiducloud, huaweicloud, tencentcloud, volcengine

SDK_ROOTS = (
    "tencentcloud",
    "alibabacloud_ecs20140526",
    "alibabacloud_tea_openapi",
    "darabonba",
    "huaweicloudsdkbss",
    "huaweicloudsdkcore",
    "volcenginesdkbilling",
    "volcenginesdkcore",
    "baidubce",
)
ENV = {
    "TENCENTCLOUD_SECRET_ID": "id",
    "TENCENTCLOUD_SECRET_KEY": "key",
    "ALIBABA_CLOUD_ACCESS_KEY_ID": "id",
    "ALIBABA_CLOUD_ACCESS_KEY_SECRET": "key",
    "HUAWEICLOUD_SDK_AK": "ak",
    "HUAWEICLOUD_SDK_SK": "sk",
    "HUAWEICLOUD_SDK_DOMAIN_ID": "domain",
    "HUAWEICLOUD_SDK_PROJECT_ID": "project",
    "VOLCENGINE_ACCESS_KEY": "ak",
    "VOLCENGINE_SECRET_KEY": "sk",
    "BCE_ACCESS_KEY_ID": "ak",
    "BCE_SECRET_ACCESS_KEY": "sk",
    "TRAINSTACK_VOLCENGINE_PRICE_CODES": str(FIXTURES / "volcengine" / "price_codes.json"),
}


def test_importing_the_fetchers_loads_no_sdk():
    modules = [
        f"profiles.catalog.fetchers.{name}"
        for name in ("alicloud", "tencentcloud", "huaweicloud", "volcengine", "baiducloud")
    ]
    code = (
        f"import sys\nfor m in {modules!r}: __import__(m)\n"
        f"print(sorted({{m.split('.')[0] for m in sys.modules}} & set({SDK_ROOTS!r})))"
    )
    loaded = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert loaded.strip() == "[]"


@pytest.mark.parametrize(
    ("fetch", "module", "message"),
    [
        pytest.param(
            lambda: tencentcloud.fetch(["ap-beijing"], print),
            "tencentcloud.cvm.v20170312.cvm_client",
            "Tencent Cloud CVM API needs the official SDK tencentcloud-sdk-python-cvm",
            id="tencentcloud",
        ),
        pytest.param(
            lambda: alicloud.fetch(["cn-beijing"], print, instance_types=["ecs.gn7i-c8g1.2xlarge"]),
            "alibabacloud_ecs20140526.client",
            "Alibaba Cloud ECS API needs the official SDK alibabacloud-ecs20140526",
            id="alicloud",
        ),
        pytest.param(
            lambda: huaweicloud.fetch(["cn-north-4"], print),
            "huaweicloudsdkbss.v2",
            "Huawei BSS ListOnDemandResourceRatings needs the official SDK huaweicloudsdkbss",
            id="huaweicloud",
        ),
        pytest.param(
            lambda: volcengine.fetch(["cn-beijing"], print),
            "volcenginesdkbilling",
            "Volcengine billing QueryPriceForPayAsYouGo needs the official SDK volcenginesdkbilling",
            id="volcengine",
        ),
        pytest.param(
            lambda: baiducloud.fetch(["bj"], print),
            "baidubce.services.bcc.bcc_client",
            "Baidu AI Cloud BCC API needs the official SDK bce-python-sdk",
            id="baiducloud",
        ),
    ],
)
def test_a_missing_sdk_names_the_extra(monkeypatch, fetch, module, message):
    for name, value in ENV.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setitem(sys.modules, module, None)  # importing it now fails, as when it is not installed
    with pytest.raises(FetchError) as error:
        fetch()
    assert str(error.value) == f"{message}, which is not installed: pip install 'trainstack[china]'"
