"""An OpenAI-compatible chat client shared by the QA stage and the verify loop."""
