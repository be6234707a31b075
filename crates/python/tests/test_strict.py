"""Errors are ValueErrors: ``UschedError`` is one."""

import pytest

import usched

GEN = "lublin99:procs=64,jobs=300,seed=2,estimates=f:3"


@pytest.fixture(scope="module")
def small():
    return usched.load(GEN)


@pytest.fixture()
def stepper(small):
    s = usched.Stepper(small)
    assert s.next_decision()
    return s


# 3: UschedError is a ValueError.
def test_uschederror_is_a_value_error(small):
    assert issubclass(usched.UschedError, ValueError)
    with pytest.raises(ValueError):
        usched.load(GEN, estimate="bogus")
    with pytest.raises(usched.UschedError):
        usched.load(GEN, estimate="bogus")
    # The environments' range errors, one kind or the other, are ValueErrors.
    from usched.envs import BatchSchedulingEnv, MarketAdmissionEnv

    with pytest.raises(ValueError, match="window is 0"):
        BatchSchedulingEnv(small, window=0)
    with pytest.raises(ValueError, match="weight is 2"):
        MarketAdmissionEnv(usched.load(GEN, estimate="actual"), weight=2.0)
