"""A symbolic "verified" step shows as evidence ("arithmetic checks out"), not a rating chip,
and "Accept suggestions" leaves it unrated (issue 14)."""

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from playwright.sync_api import expect

from autolabel.services import autolabel_item_process, autolabel_run_create
from labeling.models import Project, Solution, Suggestion
from tests.e2e.helpers import login
from tests.e2e.test_annotator_journey import DEMO
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_checks_out_is_evidence_and_accept_all_does_not_rate_it(live_server, page, screenshot):
    call_command("load_demo")
    project = Project.objects.get(name=DEMO)
    first = Solution.objects.filter(project=project).order_by("id").first()
    steps = list(first.steps.order_by("index"))
    # The symbolic engine as the workers run it, on the first demo solution.
    run = autolabel_run_create(
        project=project, sources=["symbolic"], filter={"solution_ids": [first.pk]}
    )
    autolabel_item_process(run=run, solution_id=first.pk)
    checks_out = Suggestion.objects.filter(step__solution=first, source="symbolic", value=None)
    assert checks_out.exists(), "the demo's first solution has a step whose arithmetic holds"
    verified = sorted(s.step.index for s in checks_out)
    evidence = checks_out.get(step__index=verified[0]).evidence
    claims = [f"{c['lhs']} = {c['rhs']}" for c in evidence["claims"] if c["holds"]]
    # The demo's imported labels are suggestions too: the verified steps keep only their
    # evidence, and another step gets a rating, so "Accept suggestions" has something to do.
    Suggestion.objects.filter(step__solution=first, step__index__in=verified).exclude(
        source="symbolic"
    ).delete()
    other = next(s for s in steps if s.index not in verified)
    Suggestion.objects.create(
        step=other, source="judge", agent="critic", value=-1, evidence={"rationale": "Wrong."}
    )

    login(page, live_server.url, "annotator", "steplab-annotator")
    page.goto(f"{live_server.url}/projects/{project.pk}/label")
    rows = page.get_by_test_id("step-row")
    expect(rows).to_have_count(len(steps))
    row = rows.nth(verified[0])
    chip = row.get_by_test_id("evidence-chip")
    expect(chip).to_have_count(1)
    expect(chip).to_contain_text("arithmetic checks out")
    expect(chip).to_have_attribute("data-kind", "checks out")
    title = chip.get_attribute("title")
    assert claims[0] in title
    # What "checks out" was measured to be worth (autolabel/calibration/symbolic.json).
    measured = evidence["calibration"]
    assert f"the step was correct {round(100 * measured['step_correct'])}% of {measured['n']}" in (
        title
    )
    # No rating chip for it, on any step.
    expect(page.locator('[data-testid="suggestion-chip"][data-source="symbolic"]')).to_have_count(
        Suggestion.objects.filter(step__solution=first, source="symbolic", value=-1).count()
    )
    chip.click()
    expect(row.get_by_test_id("evidence-items")).to_be_visible()
    expect(row.get_by_test_id("evidence-items")).to_contain_text("not a rating")
    expect(row.get_by_test_id("evidence-items")).to_contain_text("the step was correct")
    expect(row).to_have_attribute("data-rating", "")  # clicking evidence rates nothing
    screenshot("evidence-checks-out")

    page.get_by_test_id("accept-suggestions").click()
    expect(rows.nth(other.index)).to_have_attribute("data-rating", "-1")
    for index in verified:
        expect(rows.nth(index)).to_have_attribute("data-rating", "")
    screenshot("evidence-after-accept-all")
    # The accepted rating is autosaved: let it land before the test's database goes away
    # (an autosave arriving during teardown deadlocked with the flush).
    expect(page.get_by_test_id("save-state")).to_contain_text("Saved")


def test_a_doubtful_claim_is_evidence_on_the_step_not_a_rating(
    live_server, page, screenshot, tmp_path, monkeypatch
):
    """A failed claim of a kind that has not earned a −1 (issue 25) reads "looks wrong, not
    refuted" on its step, with the claim, its kind and the kind's measured precision; the step
    is left unrated and "Accept suggestions" has nothing to accept."""
    from autolabel.calibration import ENV, kinds
    from autolabel.symbolic import CHECKER_VERSION

    monkeypatch.setattr(kinds, "assume_all_earned", False)
    monkeypatch.setenv(ENV, str(tmp_path))
    kinds.clear_cache()
    entry = {"on": "ProcessBench dev (develop)", "kinds": {"arithmetic": kinds.kind_row(18, 20)}}
    kinds.write_kinds(CHECKER_VERSION, entry, folder=tmp_path)
    try:
        project = ProjectFactory(name="Doubtful claims", guidelines="")
        user = get_user_model().objects.create_user("dora", password="dora-labels-steps-7")
        MembershipFactory(project=project, user=user)
        solution = SolutionFactory(
            problem__project=project,
            problem__text="Add $2$ and $3$.",
            steps=["First we add the two numbers.", "So $2 + 3 = 6$."],
        )
        run = autolabel_run_create(
            project=project, sources=["symbolic"], filter={"solution_ids": [solution.pk]}
        )
        autolabel_item_process(run=run, solution_id=solution.pk)
        doubtful = Suggestion.objects.get(step__solution=solution, step__index=1)
        assert doubtful.value is None and doubtful.evidence["kind"] == "doubtful"

        login(page, live_server.url, "dora", "dora-labels-steps-7")
        page.goto(f"{live_server.url}/projects/{project.pk}/label")
        rows = page.get_by_test_id("step-row")
        expect(rows).to_have_count(2)
        row = rows.nth(1)
        expect(row).to_contain_text("looks wrong")
        expect(row).to_contain_text("not refuted")
        expect(row).to_contain_text("arithmetic")
        expect(row).to_contain_text("90%")
        expect(row.locator('[data-testid="suggestion-chip"]')).to_have_count(0)
        screenshot("evidence-doubtful")
        # Nothing to accept: evidence is no suggested rating.
        expect(page.get_by_test_id("accept-suggestions")).to_have_count(0)
        expect(row).to_have_attribute("data-rating", "")
    finally:
        kinds.clear_cache()
