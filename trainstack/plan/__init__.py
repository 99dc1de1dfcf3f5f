"""The offline plan runner: the real Pulumi program under mocks, what it registers, its tree for people."""
