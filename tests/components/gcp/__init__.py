"""Tests of the GCP cluster component and its pure helpers."""
