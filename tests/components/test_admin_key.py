"""`components.admin_key`: the stack's key as given, else one generated key of the cloud's type."""

from __future__ import annotations

import pulumi
import pytest

from components.admin_key import ED25519, RSA_4096, admin_public_key
from tests.components.harness import install_mocks


def _key(config, key_type):
    _, monitor = install_mocks(config.region)
    seen: dict = {}

    @pulumi.runtime.test
    def program():
        public_key, generated = admin_public_key("c", config, pulumi.ResourceOptions(), key_type)
        seen["generated"] = generated is not None
        return public_key.apply(lambda key: seen.update(key=key))

    program()
    return monitor.records(), seen


@pytest.mark.parametrize(
    ("key_type", "inputs"),
    [
        pytest.param(ED25519, {"algorithm": "ED25519"}, id="ed25519"),
        pytest.param(RSA_4096, {"algorithm": "RSA", "rsaBits": 4096}, id="rsa-4096"),
    ],
)
def test_without_a_key_one_is_generated_of_the_clouds_type(make_config, key_type, inputs):
    records, seen = _key(make_config(), key_type)
    assert [(r["type"], r["name"], r["inputs"]) for r in records] == [
        ("tls:index/privateKey:PrivateKey", "c-admin-key", inputs)
    ]
    assert seen["generated"]


def test_a_given_key_is_used_stripped_and_nothing_is_generated(make_config):
    records, seen = _key(make_config(ssh_public_key="  ssh-rsa AAAAB3Nza team@x \n"), RSA_4096)
    assert records == [] and seen == {"generated": False, "key": "ssh-rsa AAAAB3Nza team@x"}
