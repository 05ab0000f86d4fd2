"""The questionnaire of the privacy user study (Libbi et al. 2021, section 3.5 and Appendix D).

Q1-Q3 are answered on a 5-point Likert scale (Yes, Probably yes, Not sure, Probably not, No) and
Q4 is an open text answer that motivates Q3. Likert answers are stored as integers with the
higher number meaning more privacy risk: Yes = 5, Probably yes = 4, Not sure = 3,
Probably not = 2, No = 1.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Question:
    key: str
    text: str
    likert: bool


QUESTIONS: tuple[Question, ...] = (
    Question("q1", "Do you think the real doc provides enough information to identify a person?", True),
    Question("q2", "Do you think the synthetic doc contains person identifying information?", True),
    Question(
        "q3",
        "Do you think that there is a link between the synthetic and real doc in the sense that it "
        "may identify someone in the real doc?",
        True,
    ),
    Question("q4", "Please motivate your answer for Q3.", False),
)

LIKERT_KEYS: tuple[str, ...] = tuple(q.key for q in QUESTIONS if q.likert)
"""The questions with a Likert answer: the ones agreement is computed for."""

SCALE: tuple[tuple[int, str], ...] = (
    (5, "Yes"),
    (4, "Probably yes"),
    (3, "Not sure"),
    (2, "Probably not"),
    (1, "No"),
)
"""The paper's anchors in the paper's order, with the stored value of each."""

SCALE_VALUES: tuple[int, ...] = tuple(sorted(v for v, _ in SCALE))

TEXT_KEYS: tuple[str, ...] = tuple(f"{k}_text" for k in LIKERT_KEYS) + ("q4", "comment")
"""Free-text fields of one answer: a note per Likert question, Q4 (the motivation) and a comment."""
