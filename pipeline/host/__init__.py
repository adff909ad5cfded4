"""The agent host: tool groups over MCP, context, files by reference, guards, and the run loop.

Rules:
- the caller passes the I/O in (the model, the toolbox, the clock, a proposal queue); the host
  opens no connection of its own choosing;
- the task's contract is read before the first turn and fixes the tools offered (`groups`);
  guards (`CALL_GUARDS`, `RESPONSE_GUARDS`) are pure functions between the model and the tools,
  each with a switch;
- writes under manual approval become proposals (`ProposalQueue`), never calls;
- every run is data: a `RunRecord` with its calls, guard events and who wrote the answer,
  appended to the audit log (`append_run_log`).

Outside code imports from this face only; its names load their module on first use, so a
command that only reads run records does not load the MCP SDK.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.faces import lazy_face

if TYPE_CHECKING:
    from pipeline.host.attachments import (
        MERGE_MODES as MERGE_MODES,
        MERGED_NAME as MERGED_NAME,
        MergeMode as MergeMode,
        from_ingest as from_ingest,
    )
    from pipeline.host.context import (
        opening_message as opening_message,
        system_prompt as system_prompt,
    )
    from pipeline.host.groups import (
        ALL_GROUPS as ALL_GROUPS,
        choose_groups as choose_groups,
        offered_tools as offered_tools,
    )
    from pipeline.host.guards import (
        CALL_GUARDS as CALL_GUARDS,
        RESPONSE_GUARDS as RESPONSE_GUARDS,
        CallGuard as CallGuard,
        ResponseGuard as ResponseGuard,
        switched_on as switched_on,
    )
    from pipeline.host.guards.common import asks_user as asks_user
    from pipeline.host.held_writes import (
        ProposalDraft as ProposalDraft,
        ProposalQueue as ProposalQueue,
        ProposalRefusal as ProposalRefusal,
        ProposalTicket as ProposalTicket,
    )
    from pipeline.host.loop import HostLimits as HostLimits, Run as Run, run_task as run_task
    from pipeline.host.reading import (
        CONTRACT_SCHEMA as CONTRACT_SCHEMA,
        READING_TOKENS as READING_TOKENS,
        contract_prompt as contract_prompt,
        contract_schema as contract_schema,
        model_reading as model_reading,
        warehouse_names as warehouse_names,
    )
    from pipeline.host.record import (
        AttachmentInfo as AttachmentInfo,
        GuardEvent as GuardEvent,
        RunRecord as RunRecord,
        RunStatus as RunStatus,
        ToolCallRecord as ToolCallRecord,
        append_run_log as append_run_log,
        read_run_log as read_run_log,
    )
    from pipeline.host.run import new_run_id as new_run_id
    from pipeline.host.toolbox import (
        HttpTarget as HttpTarget,
        MemoryTarget as MemoryTarget,
        Target as Target,
        Toolbox as Toolbox,
        ToolOutcome as ToolOutcome,
        stdio_targets as stdio_targets,
    )

else:
    __getattr__, __dir__, __all__ = lazy_face(__name__)
