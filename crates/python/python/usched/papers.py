"""The papers from Python: one run of each paper crate, as tables.

Each function runs one policy of one paper the way the experiments' kinds
run it (``configs/`` and ``usched.run``): the same option names and
defaults (the paper's), the same construction of the inputs from the
workload, and the same random draws, those of repetition ``repetition`` of
a configuration whose ``seed`` is ``seed``. So its ``summary`` equals the
metrics ``usched.run`` reports for that configuration.

* :func:`pricing` -- Yeo & Buyya: Libra, Libra+$ and the EASY backfilling
  baselines (``fcfs-bf``, ``sjf-bf``, ``edf-bf``) over a trace given
  deadlines and budgets (the ``pricing`` crate).
* :func:`adaptive` -- Netto & Buyya: moldable and preemptive requests with
  deadlines under FIFO or MDF with conservative backfilling
  (``adaptive-requests``).
* :func:`provisioning` -- Assunção & Buyya: providers publishing free time
  slots to an InterGrid gateway, one round against a base run
  (``intergrid``, ``gateway``, ``partitions-forecast``).
* :func:`utility` -- Vasques & Veiga: the decentralised grid scheduled by
  partial utility, binary utility or matchmaking (``utility-match``).

Every function returns a :class:`PaperRun`: ``jobs`` (a dict of
equal-length numpy arrays, one row per job, which ``pandas.DataFrame``
takes as it is), the run's other ``tables`` and its ``summary`` (the
paper's metrics, named as the crate names them). A bad option raises
:class:`usched.UschedError` naming it.

    >>> import usched
    >>> w = usched.load("KTH-SP2-1996-2.1-cln", estimate="actual")  # doctest: +SKIP
    >>> r = usched.papers.pricing(w, "libra+$")                       # doctest: +SKIP
    >>> r.summary["qos_satisfaction"], r.jobs["cost"][:3]             # doctest: +SKIP
"""

from __future__ import annotations

from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _usched
from ._usched import Workload

__all__ = ["PaperRun", "adaptive", "pricing", "provisioning", "utility"]

Columns = Dict[str, np.ndarray]
Raw = Tuple[Dict[str, List[Tuple[str, str, List[object]]]], Dict[str, float]]


class PaperRun:
    """One run of a paper's policy.

    ``paper`` (``"pricing"``, ``"adaptive"``, ``"provisioning"`` or
    ``"utility"``), ``policy`` (its name as given), ``tables`` (every table
    by name, each a dict of equal-length numpy arrays), ``jobs`` (the table
    of jobs, ``tables["jobs"]``) and ``summary`` (the run's metrics by the
    crate's names: counts as ``int``, the rest as ``float``).
    """

    def __init__(
        self, paper: str, policy: str, tables: Dict[str, Columns], summary: Dict[str, float]
    ) -> None:
        self.paper = paper
        self.policy = policy
        self.tables = tables
        self.summary = summary

    @property
    def jobs(self) -> Columns:
        """One row per job (per request, per grid job)."""
        return self.tables["jobs"]

    def __repr__(self) -> str:
        rows = {name: len(next(iter(t.values()), ())) for name, t in self.tables.items()}
        return f"PaperRun({self.paper!r}, {self.policy!r}, rows={rows})"


def _listed(name: str, value: Any) -> List[Any]:
    """A sequence option as a list, or a ``TypeError`` naming it: a string
    is one value, not a sequence of its characters."""
    if isinstance(value, (str, bytes)) or not isinstance(value, Iterable):
        raise TypeError(
            f"{name} is {_usched.shown(value)}, expected a sequence (a list or a tuple)"
        )
    return list(value)


def _table(name: str, value: Any) -> Dict[Any, Any]:
    """A table option as a dict, or a ``TypeError`` naming it."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} is {_usched.shown(value)}, expected a dict")
    return dict(value)


def _paper_run(paper: str, policy: str, raw: Raw) -> PaperRun:
    tables, summary = raw
    arrays = {
        name: {col: np.asarray(values, dtype=dtype) for col, dtype, values in columns}
        for name, columns in tables.items()
    }
    return PaperRun(paper, policy, arrays, dict(summary))


def pricing(
    workload: Workload,
    policy: str = "libra+$",
    *,
    alpha: float = 1.0,
    beta: float = 0.1,
    gamma: float = 1.0,
    delta: float = 1.0,
    base_price: float = 1.0,
    arrival_delay: float = 0.5,
    high_urgency: float = 20.0,
    inaccuracy: float = 0.0,
    deadline_low_mean: float = 2.0,
    deadline_ratio: float = 4.0,
    budget_low_mean: float = 2.0,
    budget_ratio: float = 4.0,
    spread: float = 0.25,
    rating: int = 168,
    spare: str = "proportional",
    late: str = "full",
    committed: str = "estimate",
    drop: str = "hopeless",
    seed: int = 1,
    repetition: int = 0,
) -> PaperRun:
    """Runs one policy of Yeo & Buyya's comparison over ``workload``.

    ``policy`` is a series name of the ``pricing`` crate: ``fcfs-bf``,
    ``sjf-bf``, ``edf-bf`` (EASY backfilling in that queue order on the
    machine space-shared), ``libra``, ``libra+$`` (time-shared, one node per
    processor) or ``libra+$-b<beta>`` (Libra+$ with its own ``beta``, which
    then overrides ``beta``). The options are the ``pricing`` kind's
    ``[params]``, with Table I's defaults: ``alpha``/``beta`` (Libra+$),
    ``gamma``/``delta`` (Libra), ``base_price`` ($ per processor-second),
    ``arrival_delay`` (inter-arrival times multiplied by it), the urgency
    classes (``high_urgency`` in %, the ``deadline_*`` and ``budget_*``
    means and ratios, ``spread``), ``inaccuracy`` (% under-estimation),
    ``rating`` (SPEC), and the readings ``spare`` (``proportional``,
    ``equal``, ``idle``), ``late`` (``full``, ``zero``), ``committed``
    (``estimate``, ``remaining``, ``window``) and ``drop`` (``hopeless``,
    ``lapsed``). Load the trace with ``estimate="actual"`` for the paper's
    exact estimates.

    ``jobs``: id, submit (after ``arrival_delay``), procs, run_time,
    estimate, deadline (``D``, seconds after submit), budget, urgency
    (``high``/``low``), accepted (started, for a baseline), reason (the
    rejection, empty if accepted; a baseline's dropped jobs count as
    ``cannot_meet_deadline``), start and finish (NaN if not run), cost
    (``C``, NaN if not accepted), met_deadline, met_qos. ``summary``:
    submitted, accepted, qos_met, earned, budgets, qos_satisfaction,
    profitability (eq. 7 and 8, fractions), rejected_resources,
    rejected_deadline, rejected_budget, rejected_custom, late.
    """
    options = dict(
        alpha=alpha,
        beta=beta,
        gamma=gamma,
        delta=delta,
        base_price=base_price,
        arrival_delay=arrival_delay,
        high_urgency=high_urgency,
        inaccuracy=inaccuracy,
        deadline_low_mean=deadline_low_mean,
        deadline_ratio=deadline_ratio,
        budget_low_mean=budget_low_mean,
        budget_ratio=budget_ratio,
        spread=spread,
        rating=rating,
        spare=spare,
        late=late,
        committed=committed,
        drop=drop,
    )
    raw = _usched.paper_pricing(workload, policy, options, seed=seed, repetition=repetition)
    return _paper_run("pricing", policy, raw)


def adaptive(
    workload: Workload,
    variant: str = "fifo-rigid",
    *,
    interval_days: int = 15,
    load_increase: float = 0.0,
    incentive: float = 0.0,
    budget: str = "limit",
    mdf_fallback: str = "reject",
    mdf_rescheduling: str = "full",
    r_min_percent: int = 80,
    rigid_up_to: int = 10,
    preemptive_share: float = 0.6,
    preemptive_min_run: int = 3600,
    sp_parts: int = 10,
    sp_percent: int = 10,
    sp_mold_each: bool = True,
    high_share: float = 0.2,
    high_profile: float = 3.0,
    deadline_factor: int = 5,
    low_extra: int = 259200,
    rate: float = 1.0,
    max_discount: float = 0.6,
    seed: int = 1,
    repetition: int = 0,
) -> PaperRun:
    """Runs one variant of Netto & Buyya's adaptive requests over ``workload``.

    ``variant`` is ``<policy>-<flexibility>``: policy ``fifo`` or ``mdf``,
    flexibility ``rigid``, ``preemptive``, ``moldable`` or
    ``preemptive-moldable``. The trace is cut into intervals of
    ``interval_days`` days, each rebased to time 0 with its inter-arrival
    times compressed by ``load_increase`` (%), and each job becomes a
    request by Table 1 (``r_min_percent`` ... ``max_discount``, the
    ``adaptive`` kind's ``table1.*`` keys, with the paper's defaults;
    ``T^min`` is the job's estimate, so load the trace with
    ``estimate="actual"`` for the paper's). ``incentive`` is the % off the
    price of preemptive requests; ``budget`` ``limit`` or ``cap``;
    ``mdf_fallback`` ``reject`` or ``append``; ``mdf_rescheduling`` ``full``
    or ``incremental``.

    ``jobs`` (one row per request): interval, id, submit, r_min, r_max,
    t_min, deadline (``D``, seconds after submit), budget, price_profile,
    moldable, preemptive, accepted, start and completion (NaN if
    rejected), parts, molded, split, proc_seconds, price, response.
    ``tables["intervals"]``: one ``IntervalStats`` per interval (the
    samples of the kind's metrics). ``summary``: the ``IntervalStats``
    fields summed over the intervals (requests, accepted, profit,
    response_sum, moldable_accepted, molded, modification_sum,
    preemptive_accepted, split, busy, span), intervals, rejected and
    response (the mean response time of the accepted requests).
    """
    options = dict(
        interval_days=interval_days,
        load_increase=load_increase,
        incentive=incentive,
        budget=budget,
        mdf_fallback=mdf_fallback,
        mdf_rescheduling=mdf_rescheduling,
        r_min_percent=r_min_percent,
        rigid_up_to=rigid_up_to,
        preemptive_share=preemptive_share,
        preemptive_min_run=preemptive_min_run,
        sp_parts=sp_parts,
        sp_percent=sp_percent,
        sp_mold_each=sp_mold_each,
        high_share=high_share,
        high_profile=high_profile,
        deadline_factor=deadline_factor,
        low_extra=low_extra,
        rate=rate,
        max_discount=max_discount,
    )
    raw = _usched.paper_adaptive(workload, variant, options, seed=seed, repetition=repetition)
    return _paper_run("adaptive", variant, raw)


def provisioning(
    workload: Workload,
    policy: str = "areb+least-load",
    *,
    base: str = "areb+least-load",
    clusters: Sequence[int] = (144, 64, 64, 64, 64),
    procs_per_node: int = 2,
    local_max_job: str = "nodes",
    grid_months: Tuple[int, int] = (9, 12),
    trace_start_unix: Optional[int] = None,
    trace_year: Optional[int] = None,
    trace_utc_offset_s: int = 3600,
    interval_min: float = 120.0,
    report_every_s: int = 600,
    warmup_days: int = 14,
    training_from_days: int = 7,
    deadline_share: float = 0.0,
    stringency: float = 5.0,
    tolerance_s: int = 20,
    bsld_bound: int = 10,
    horizon_s: Optional[int] = None,
    forecast_window: int = 25,
    reallocation_checks: int = 3,
    share_from: str = "forecast",
    forecast_load: str = "utilisation",
    track_allocations: bool = True,
    admission: Optional[Mapping[str, Union[str, float]]] = None,
    seed: int = 1,
    repetition: int = 0,
) -> PaperRun:
    """Runs one round of Assunção & Buyya's multiple-site provisioning.

    ``workload`` is the grid trace (the paper's: ``DAS2-fs1-2003-1`` loaded
    with ``estimate="actual"``); its jobs in ``grid_months`` go to the
    InterGrid gateway, while each of ``clusters`` (processors per cluster)
    runs its own Lublin99 workload. ``policy`` is ``<provider>+<gateway>``:
    provider ``arcb``, ``areb``, ``arcbm``, ``arebm`` or ``arebmf``, gateway
    ``least-load``, ``earliest-ask`` or ``earliest-partial`` (providers
    publish their free time slots every ``interval_min`` minutes). The
    ``base`` series runs first, without deadlines: ``deadline_share`` of
    the grid jobs get ``stringency`` times their base response time as a
    deadline, and the run is measured against it (the improvement ratio
    R). ``trace_start_unix`` (the trace's time 0, seconds since 1970) and
    ``trace_year`` place the months on the calendar; ``None`` (the default,
    as an unset key of the kind) takes the start from the trace header's
    ``UnixStartTime`` and the year from that start, and fails if the header
    has none. The other options are the ``provisioning`` kind's ``[params]``,
    with the paper's defaults; ``admission`` is ``[params.admission]``
    (Libra+$ at the providers: ``{"policy": "libra+$", "alpha": ..,
    "beta": .., "base_price": .., "budget_factor": .., "deadline_factor":
    ..}``, every key optional), ``None`` to admit every grid job.

    ``jobs`` (one row per grid job in the months): id, submit (from the
    first month's start), procs, run_time, estimate, deadline (NaN if
    none), measured (submitted after the warm-up), rejected, start and end
    (NaN if rejected), held, violations, late, refusals, bsld (bounded
    slowdown) and r (its ratio R against the base run).
    ``tables["local"]``: cluster, id, submit, procs, run_time, measured,
    start, end, bsld, r. ``summary``: ``intergrid::Metrics`` (messages,
    violations, violations_pct, grid_bsld, local_bsld, grid_r, local_r,
    late_starts, refusals, rejected_pct, held_pct, grid_jobs, local_jobs,
    revenue) and admission_rejections.
    """
    options = dict(
        base=base,
        clusters=_listed("clusters", clusters),
        procs_per_node=procs_per_node,
        local_max_job=local_max_job,
        grid_months=tuple(grid_months),
        trace_start_unix=trace_start_unix,
        trace_year=trace_year,
        trace_utc_offset_s=trace_utc_offset_s,
        interval_min=interval_min,
        report_every_s=report_every_s,
        warmup_days=warmup_days,
        training_from_days=training_from_days,
        deadline_share=deadline_share,
        stringency=stringency,
        tolerance_s=tolerance_s,
        bsld_bound=bsld_bound,
        horizon_s=horizon_s,
        forecast_window=forecast_window,
        reallocation_checks=reallocation_checks,
        share_from=share_from,
        forecast_load=forecast_load,
        track_allocations=track_allocations,
        admission=None if admission is None else _table("admission", admission),
    )
    raw = _usched.paper_provisioning(
        workload, policy, options, seed=seed, repetition=repetition
    )
    return _paper_run("provisioning", policy, raw)


def utility(
    scheduler: str = "pu",
    *,
    sites: int = 4,
    resources_per_site: int = 20,
    users: int = 70,
    jobs_per_user: int = 20,
    mean_interarrival: float = 120.0,
    max_options: int = 4,
    os: Sequence[str] = ("Linux", "MacOS", "Solaris", "Windows"),
    arch: Sequence[int] = (32, 64),
    speeds: Sequence[int] = (1000, 2000, 3000, 4000),
    exec_times: Sequence[int] = (300, 600, 900, 1200),
    cores: Sequence[int] = (1, 2, 4, 8),
    memory: Sequence[int] = (1024, 2048, 4096, 8192),
    length: Tuple[int, int] = (200000, 1000000),
    jobs_per_core: int = 0,
    weights: Tuple[float, float, float, float] = (1.0, 1.0, 1.0, 1.0),
    max_ttl: int = 3,
    delay: int = 1,
    delays: Optional[Sequence[Sequence[int]]] = None,
    status_period: int = 60,
    l_max: float = 0.8,
    n_max: int = 4,
    load_trigger: str = "above",
    remote_view: str = "full",
    tie_break: str = "local-least-loaded",
    local_fallback: bool = False,
    exec_estimate: str = "turnaround",
    seed: int = 1,
    repetition: int = 0,
) -> PaperRun:
    """Runs Vasques & Veiga's decentralised grid under one scheduler.

    ``scheduler`` is the local schedulers' utility function: ``pu``
    (partial utility), ``bu`` (binary utility) or ``mm`` (matchmaking). The
    grid and its jobs are generated (§4.2) from the seed, so every
    scheduler run with the same options and seed sees the same grid. The
    options are ``utility_match::Settings`` (the ``utility`` kind's
    ``[params]``) with the paper's defaults: the scenario (``sites`` ...
    ``weights``) and the local schedulers (``max_ttl`` ...
    ``exec_estimate``; ``delays`` is a matrix, one row per site, that
    replaces ``delay``).

    ``jobs``: id, user, site, submit, assigned, start, end (NaN if never),
    resource_site and resource_index (-1 if it never ran), forwards,
    status (``completed``, ``no_acceptable_resource``, ``ttl_expired``),
    decided_utility, achieved_utility. ``tables["machines"]``: site, index,
    cores, busy (core-seconds), jobs. ``summary``: users and the metrics of
    ``SystemMetrics::named``: success_ratio, user_utility,
    user_utility_eq3, served_utility, decided_utility, submission_time,
    execution_time, load_balance, forwards_per_job, messages_per_job,
    rejected, expired.
    """
    options: Dict[str, object] = dict(
        scheduler=scheduler,
        sites=sites,
        resources_per_site=resources_per_site,
        users=users,
        jobs_per_user=jobs_per_user,
        mean_interarrival=mean_interarrival,
        max_options=max_options,
        os=_listed("os", os),
        arch=_listed("arch", arch),
        speeds=_listed("speeds", speeds),
        exec_times=_listed("exec_times", exec_times),
        cores=_listed("cores", cores),
        memory=_listed("memory", memory),
        length=_listed("length", length),
        jobs_per_core=jobs_per_core,
        weights=_listed("weights", weights),
        max_ttl=max_ttl,
        delay=delay,
        delays=None
        if delays is None
        else [_listed(f"delays[{i}]", row) for i, row in enumerate(_listed("delays", delays))],
        status_period=status_period,
        l_max=l_max,
        n_max=n_max,
        load_trigger=load_trigger,
        remote_view=remote_view,
        tie_break=tie_break,
        local_fallback=local_fallback,
        exec_estimate=exec_estimate,
    )
    raw = _usched.paper_utility(options, seed=seed, repetition=repetition)
    return _paper_run("utility", scheduler, raw)
