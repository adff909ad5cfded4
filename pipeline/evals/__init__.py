"""Two-track evaluation of stockshot (DESIGN §5).

The same cases run two ways, scored separately:
- the **model track** sends one request per case and scores only the first tool call;
- the **product track** runs the whole host loop with guards against the tool servers on a
  scratch copy of the store and scores the ledger afterwards (or, in a dry run, the write calls
  it recorded).
The product track runs with all guards on and then with each guard switched off in turn, over
k seeds, so what each guard earns is measured. Models: `rules`, the fault replay
(`pipeline.evals.faults`, scripted failure modes of small local models over the right plan),
and any OpenAI-compatible endpoint. Entry point: `stockshot eval` (`pipeline.cli.evaluation`).

Modules: `cases` (case files and checks), `screens` (each screenshot ingested once),
`scratch` (seeded store copies, the ledger), `scoring` (pure verdicts), `faults`, `runner`
(the tracks), `report` (scores, eval.json, eval.md, the summary).
"""
