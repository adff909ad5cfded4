"""`stockshot profiles list|show|delete`: column mappings saved for a screen (stockshot ingest
--columns ... --save-profile).

Saved column profiles: how the columns of one screen map onto the schema, kept by the header
signature of its table.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from pipeline.cli import Commands, command
from pipeline.errors import InputError
from pipeline.settings import Settings

if TYPE_CHECKING:
    from pipeline.profiles import StoreProfiles
    from store.protocol import OpenStore

__all__ = ["register"]


def register(sub: Commands) -> None:
    parser = command(sub, "profiles", __doc__)
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="every saved profile, newest first")
    listing.add_argument("--json", action="store_true")
    listing.set_defaults(handler=_list)
    show = actions.add_parser("show", help="one profile")
    show.add_argument("signature")
    show.set_defaults(handler=_show)
    delete = actions.add_parser("delete", help="forget one profile")
    delete.add_argument("signature")
    delete.set_defaults(handler=_delete)


def _profiles(settings: Settings) -> tuple[OpenStore, StoreProfiles]:
    from pipeline.bootstrap import open_store, utc_now
    from pipeline.profiles import StoreProfiles

    store = open_store(settings)
    return store, StoreProfiles(store, clock=utc_now)


def _list(args: argparse.Namespace, settings: Settings) -> int:
    store, profiles = _profiles(settings)
    with store:
        found = profiles.list()
    if args.json:
        for profile in found:
            print(profile.model_dump_json())
        return 0
    if not found:
        print("no profiles (save one with stockshot ingest IMAGE --columns ... --save-profile)")
    for profile in found:
        mapping = ", ".join(f"{f}={h}" for f, h in profile.mapping.items())
        print(f"{profile.signature}  {profile.name or '(no name)'}  {mapping}")
    return 0


def _show(args: argparse.Namespace, settings: Settings) -> int:
    store, profiles = _profiles(settings)
    with store:
        found = profiles.get(args.signature)
    if found is None:
        raise InputError(f"no profile {args.signature!r} (stockshot profiles list shows them)")
    print(json.dumps(found.model_dump(mode="json"), ensure_ascii=False, indent=2))
    return 0


def _delete(args: argparse.Namespace, settings: Settings) -> int:
    store, profiles = _profiles(settings)
    with store:
        gone = profiles.delete(args.signature)
    if not gone:
        print(f"stockshot: error: no profile {args.signature!r}", file=sys.stderr)
        return 2
    print(f"deleted profile {args.signature}")
    return 0
