"""Cost to finish a training job: hours on each offering, memory fit, spot overhead,
reserved prices and storage, turned into USD per job (see `estimate.estimate`)."""
