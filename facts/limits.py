"""The largest job and file system trainstack plans, from the providers' own maxima.

Figures:
  MAX_HOURS: 26,280 h = 3 years, the longest term any supported cloud prices capacity for
      (1- and 3-year reserved terms and savings plans; pricing-models.md A1, Z1, Z2). A
      longer run is a unit typo (`1000000000h`), not a job.
  MAX_FILE_SYSTEM_GIB: 104,857,600 GiB = 100 PiB, the largest file system any supported
      cloud documents (Tencent CFS Turbo's spec limit, china-clouds.md section 4; GCP Managed
      Lustre's largest tier is 84,016,000 GiB, storage.md L1). Each cloud's own maximum is
      checked by its sizing rule in `clouds/<cloud>/`; FSx for Lustre has none in the sourced
      facts, so on AWS this is the only limit.
"""

MAX_HOURS = 3 * 8760
MAX_FILE_SYSTEM_GIB = 100 * 1024 * 1024
