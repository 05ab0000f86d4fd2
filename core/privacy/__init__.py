"""The privacy audit: canaries (model and data), the audit math, the model probe, measuring a
corpus with the privacy metrics and the gate a corpus must pass to be published."""
