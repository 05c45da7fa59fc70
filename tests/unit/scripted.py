"""A source of randomness that answers from a script, so a port's behaviour is exact."""


class ScriptedRng:
    """Answers ``below`` from a list, checking each answer is in range; counts what was used."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.used = 0

    def below(self, m):
        answer = self.answers[self.used]
        assert 0 <= answer < m, f"scripted answer {answer} is not below {m}"
        self.used += 1
        return answer

    def below_many(self, bounds):
        return [self.below(m) for m in bounds]

    def random(self):
        raise AssertionError("this script has no floats")

    @property
    def exhausted(self):
        return self.used == len(self.answers)
