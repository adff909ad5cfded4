"""`/v1/profiles`: column mappings people confirmed, by the header signature of a screen."""

from __future__ import annotations

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException

from pipeline.api.deps import Services, caller, needs, or_404
from pipeline.api.schemas import ErrorBody
from store.models import ColumnProfile

__all__ = ["router"]

router = APIRouter(tags=["profiles"])


class ProfileIn(BaseModel):
    headers: list[str] = Field(description="the table's headers, in order, as ingest read them")
    mapping: dict[str, str] = Field(
        description="schema field -> the header of the column that holds it",
        examples=[{"on_hand": "Free stock", "reorder_point": "Reorder level"}],
    )
    name: str = ""


@router.get(
    "/profiles",
    **needs("viewer"),
    response_model=list[ColumnProfile],
    summary="Saved column profiles",
)
async def list_profiles(services: Services) -> list[ColumnProfile]:
    """Every saved profile, newest first."""
    return services.profiles.list()


@router.get(
    "/profiles/{signature}",
    **needs("viewer"),
    response_model=ColumnProfile,
    responses={404: {"model": ErrorBody}},
    summary="One column profile",
)
async def get_profile(signature: str, services: Services) -> ColumnProfile:
    return or_404(services.profiles.get(signature), f"no profile {signature!r}")


@router.put(
    "/profiles",
    **needs("operator"),
    response_model=ColumnProfile,
    summary="Save the column mapping for a screen",
)
async def put_profile(body: ProfileIn, services: Services, request: Request) -> ColumnProfile:
    """Keep `mapping` for tables with these headers (their signature is `header_signature`):
    the next screenshot of the same screen maps the same way. A field outside the schema or
    a header the table does not have is a 400."""
    return services.profiles.save(body.headers, body.mapping, name=body.name, by=caller(request))


@router.delete(
    "/profiles/{signature}",
    **needs("operator"),
    status_code=204,
    responses={404: {"model": ErrorBody}},
    summary="Forget a column profile",
)
async def delete_profile(signature: str, services: Services) -> Response:
    if not services.profiles.delete(signature):
        raise HTTPException(404, f"no profile {signature!r}")
    return Response(status_code=204)
