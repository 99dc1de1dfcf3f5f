"""Replace-on-change inputs of Azure (and the TLS keys its component generates)'s resources (format and rule N: `trainstack.review.replacements`).

Sources:
  Z  pulumi-azure-native schema `willReplaceOnChanges` (e.g. storagecache AmlFilesystem:
     filesystemSubnet, identity, location, sku, storageCapacityTiB, zones; compute
     VirtualMachineScaleSet: resourceGroupName, vmScaleSetName). ARM cannot move a resource
     to another region or resource group, so `location` and `resourceGroupName` count as
     replacing on every azure-native type.
  T  hashicorp/terraform-provider-tls private_key: algorithm, rsa_bits, ecdsa_curve are ForceNew.
"""

from __future__ import annotations

from clouds.base import NodeEffect, Replacements

REPLACEMENTS = Replacements(
    replace_on_change={
        "azure-native:storagecache:AmlFilesystem": (
            "amlFilesystemName",
            "filesystemSubnet",
            "identity",
            "sku",
            "storageCapacityTiB",
            "zones",
        ),
        "azure-native:compute:VirtualMachineScaleSet": (
            "vmScaleSetName",
            # Spot <-> Regular cannot be changed in place: "setting the Spot flag is only
            # supported at creation time" (MicrosoftDocs azure-docs virtual-machine-scale-sets/
            # use-spot.md, FAQ; Azure/azure-cli#11187). terraform-provider-azurerm: `priority`
            # and `eviction_policy` ForceNew on azurerm_linux_virtual_machine_scale_set.
            "virtualMachineProfile.priority",
            "virtualMachineProfile.evictionPolicy",
        ),
        # A NAT gateway's zone "can't be changed" after deployment (azure-docs nat-gateway/
        # nat-overview.md); public IP: azure-native forceNewMap (provider/pkg/gen/replacement.go).
        "azure-native:network:NatGateway": ("natGatewayName", "zones"),
        "azure-native:network:PublicIPAddress": (
            "publicIpAddressName",
            "publicIPAddressVersion",
            "publicIPPrefix",
            "sku",
        ),
        "azure-native:network:Subnet": ("subnetName", "virtualNetworkName"),
        "azure-native:network:VirtualNetwork": ("virtualNetworkName",),
        "azure-native:network:NetworkSecurityGroup": ("networkSecurityGroupName",),
        "azure-native:compute:ProximityPlacementGroup": ("proximityPlacementGroupName",),
        "azure-native:compute:VirtualMachine": ("vmName",),
        "azure-native:network:NetworkInterface": ("networkInterfaceName",),
        # TLS (source T)
        "tls:index/privateKey:PrivateKey": ("algorithm", "rsaBits", "ecdsaCurve"),
    },
    # ARM cannot move a resource to another region or resource group (source Z).
    every_type=(("azure-native:", ("location", "resourceGroupName")),),
    # The scale set's upgrade policy is Manual: a model change reaches a VM only when the
    # scale set creates it (spot restore, repair, scale-out) or `az vmss update-instances`.
    node_effects={
        "azure-native:compute:VirtualMachineScaleSet": NodeEffect(
            resizes=("sku.capacity",),
            rolled="the scale set is recreated: every node is replaced",
            kept="no running VM changes (upgrade policy Manual): VMs the scale set restores or "
            "repairs use the new model; `az vmss update-instances` applies it to the others",
        ),
    },
)
