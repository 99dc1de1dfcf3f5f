"""The trainstack node agent: runs a cluster's `job:` on every node and heeds interruption notices.

Shipped to each node by the cluster bootstrap (cloud-init / user data, see `ship`), it runs as
one systemd unit per node:

- `launcher`: runs the job's command under PyTorch's own elastic launcher (`torchrun`, i.e.
  `python -m torch.distributed.run`) with a c10d rendezvous on the head node, so a node that
  is replaced joins the running job, which resumes from its last checkpoint;
- `notices`: watchers of the cloud's interruption notice (AWS spot instance-action and
  rebalance recommendation, Azure Scheduled Events `Preempt`, GCP `preempted` and
  `maintenance-event`); on a notice the launcher gets SIGTERM, which torchrun forwards to the
  training processes so they can checkpoint inside the notice window;
- `store`: the rendezvous store the head node (never spot) keeps for the whole job.

Importing this package needs only the standard library; torch is needed where training runs
(the launcher starts `python -m torch.distributed.run`) and on the head node (`store`).
"""
