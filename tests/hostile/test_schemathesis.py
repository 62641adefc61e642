"""Schemathesis over the OpenAPI schema against a live server, as a project admin with a token:
no 500s, and every response conforms to the schema (status code documented, body valid).

One test per operation, bounded: SCHEMATHESIS_EXAMPLES examples each (default 4)."""

import os

import pytest
import schemathesis
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, given, settings
from schemathesis.specs.openapi.checks import ignored_auth, positive_data_acceptance

from labeling.services.people.tokens import token_create
from tests.factories import MembershipFactory, ProjectFactory, SolutionFactory, UserFactory

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "4"))
SCHEMA = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
# Not checked: "schema-valid data must be accepted". Schema-valid requests are rightly refused
# with 400 for what a schema cannot say (a wrong password, a project name already taken, a
# regex that does not compile). Every other check runs: no 5xx, documented status codes and
# content types, response bodies valid against the schema.
EXCLUDED = [ignored_auth, positive_data_acceptance]
OPERATIONS = {op.label: op for op in (r.ok() for r in SCHEMA.get_all_operations())}


@pytest.fixture
def admin_token(transactional_db):
    project = ProjectFactory(name="Fuzz")
    SolutionFactory(problem__project=project, steps=3)
    user = UserFactory(username="fuzz-admin", is_staff=True)
    MembershipFactory(project=project, user=user, role="admin")
    return token_create(user=user).key


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("label", sorted(OPERATIONS))
def test_api_conforms_to_its_schema(label, live_server, admin_token):
    operation = OPERATIONS[label]

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(case=operation.as_strategy())
    def check(case) -> None:
        case.call_and_validate(
            base_url=live_server.url,
            headers={"Authorization": f"Token {admin_token}"},
            # (ignored_auth: our header always carries a valid token, so it is moot.)
            excluded_checks=EXCLUDED,
        )

    check()


@pytest.mark.django_db
def test_an_unmatched_api_url_answers_the_json_error(client):
    response = client.get("/api/projects/-1/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert "text/html" in client.get("/nowhere/").headers["Content-Type"]
