"""Each cloud's secret-store reader for the node agent (`nodeagent.secrets`), stdlib only."""
