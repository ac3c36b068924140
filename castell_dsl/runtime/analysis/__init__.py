"""`castell analyze`: a design report for a rule set (docs/analysis.md; the design is in docs/architecture.md)."""
