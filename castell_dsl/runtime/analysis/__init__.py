"""`castell analyze`: a design report for a rule set (users: docs/analysis.md; the design:
docs/architecture.md)."""
