"""The load test's client-side check catches double holds (so the load test can fail)."""

from bench.load.annotators import Claim, client_side_violations


def _claim(user: str, start: float, end: float, submitted: bool = True) -> Claim:
    return Claim(user, 1, hash(user) % 1000, start, end, {1: 1} if submitted else None)


def test_two_holders_at_once_over_overlap_one_is_a_violation():
    claims = [_claim("a", 0.0, 2.0), _claim("b", 1.0, 3.0)]
    assert client_side_violations(claims, overlap=1)
    assert client_side_violations(claims, overlap=2) == []


def test_a_claim_after_the_overlap_was_filled_is_a_violation():
    claims = [_claim("a", 0.0, 1.0), _claim("b", 2.0, 3.0)]
    assert client_side_violations(claims, overlap=1)
    assert client_side_violations(claims, overlap=2) == []


def test_sequential_claims_after_an_unsubmitted_one_are_fine():
    claims = [_claim("a", 0.0, 1.0, submitted=False), _claim("b", 2.0, 3.0)]
    assert client_side_violations(claims, overlap=1) == []


def test_one_user_submitting_twice_is_a_violation():
    claims = [_claim("a", 0.0, 1.0), _claim("a", 2.0, 3.0)]
    assert client_side_violations(claims, overlap=2)
