"""Type stubs of the Rust extension module (usched._usched)."""

import os
from typing import (
    Any,
    Callable,
    Dict,
    List,
    Mapping,
    NoReturn,
    Optional,
    Sequence,
    Tuple,
    Union,
    final,
)

import numpy as np

# A file parameter: what `open` takes (see convert::path).
_Path = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]

__all__ = [
    "BatchCore",
    "BatchVec",
    "MarketCore",
    "Schedule",
    "Stepper",
    "UschedError",
    "Workload",
    "__version__",
    "config_of",
    "load",
    "paper_adaptive",
    "paper_pricing",
    "paper_provisioning",
    "paper_utility",
    "run_config",
    "shown",
    "simulate",
]

__version__: str

class UschedError(ValueError):
    """Bad input or a failed run. A ``ValueError``, so ``except ValueError``
    catches it as it catches the range errors of numeric options."""

@final
class Workload:
    @property
    def name(self) -> str: ...
    @property
    def capacity(self) -> int: ...
    @property
    def sha256(self) -> Optional[str]: ...
    def __len__(self) -> int: ...
    def facts(self) -> Dict[str, object]: ...
    def columns(self) -> Dict[str, List[object]]: ...
    # Pickling and copy: the state as bytes, checked when restored.
    def __reduce__(self) -> Tuple[Callable[[bytes], "Workload"], Tuple[bytes]]: ...
    @staticmethod
    def _from_state(state: bytes) -> "Workload": ...
    @staticmethod
    def _from_columns(
        *,
        id: "np.ndarray[Any, np.dtype[np.uint64]]",
        submit: "np.ndarray[Any, np.dtype[np.int64]]",
        procs: "np.ndarray[Any, np.dtype[np.int64]]",
        run_time: "np.ndarray[Any, np.dtype[np.int64]]",
        estimate: Optional["np.ndarray[Any, np.dtype[np.int64]]"],
        capacity: int,
        name: str,
    ) -> "Workload": ...

@final
class Schedule:
    @property
    def policy(self) -> str: ...
    def columns(self) -> Dict[str, List[object]]: ...
    def stats(self) -> Dict[str, float]: ...
    def write_swf(self, path: _Path, *, force: bool = ...) -> None: ...
    def write_jobs_csv(self, path: _Path, *, force: bool = ...) -> None: ...
    def __len__(self) -> int: ...
    def __reduce__(self) -> Tuple[Callable[[bytes], "Schedule"], Tuple[bytes]]: ...
    @staticmethod
    def _from_state(state: bytes) -> "Schedule": ...

@final
class Stepper:
    # Refused: a simulation in progress lives in Rust.
    def __reduce__(self) -> NoReturn: ...
    def __new__(
        cls,
        workload: Workload,
        *,
        order: str = "arrival",
        overrun: str = "kill",
        bsld_bound: Optional[int] = None,
    ) -> "Stepper": ...
    def next_decision(self) -> bool: ...
    @property
    def now(self) -> int: ...
    @property
    def free(self) -> int: ...
    @property
    def capacity(self) -> int: ...
    @property
    def event(self) -> str: ...
    def queue(self) -> List[Tuple[int, int, int, int, int, Optional[int]]]: ...
    @property
    def queue_len(self) -> int: ...
    def waiting(self, position: int) -> Optional[Tuple[int, int, int, int, int, Optional[int]]]: ...
    def running(self) -> List[Tuple[int, int, int, int, int]]: ...
    def earliest_start(self, procs: int, duration: int) -> Optional[int]: ...
    def start(self, position: int) -> None: ...
    def reserve(self, position: int, at: int) -> None: ...
    def reserve_earliest(self, position: int) -> int: ...
    def unreserve(self, position: int) -> None: ...
    def wake_at(self, at: Optional[int]) -> None: ...
    def finish(self) -> Schedule: ...

@final
class BatchCore:
    # Refused: a simulation in progress lives in Rust.
    def __reduce__(self) -> NoReturn: ...
    def __new__(
        cls,
        workload: Workload,
        *,
        window: Optional[int] = None,
        episode: Optional[int] = None,
        backfill: bool = False,
        reward: str = "bsld",
        shaping: bool = False,
        bsld_bound: Optional[int] = None,
        estimate: Optional[str] = None,
    ) -> "BatchCore": ...
    def step_env(
        self, action: Any
    ) -> Tuple[np.ndarray, float, bool, bool, Dict[str, Any]]: ...
    def reset_env(
        self, seed: Optional[int] = None, start: Optional[int] = None
    ) -> Tuple[np.ndarray, np.ndarray]: ...
    @property
    def window(self) -> int: ...
    @property
    def valid(self) -> int: ...
    @property
    def episode(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def now(self) -> int: ...
    @property
    def waiting(self) -> int: ...
    def visible_jobs(self) -> List[Tuple[int, int, int, int]]: ...
    def score_now(self) -> float: ...

@final
class BatchVec:
    # Refused: a simulation in progress lives in Rust.
    def __reduce__(self) -> NoReturn: ...
    def __new__(
        cls, core: BatchCore, num_envs: int, *, threads: Optional[int] = None
    ) -> "BatchVec": ...
    def __len__(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def reset(self, seed: Optional[int] = None) -> Tuple[np.ndarray, np.ndarray]: ...
    def close(self) -> None: ...
    def step(
        self, actions: np.ndarray
    ) -> Tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, Dict[str, Any]]: ...

@final
class MarketCore:
    # Refused: a simulation in progress lives in Rust.
    def __reduce__(self) -> NoReturn: ...
    def __new__(
        cls,
        workload: Workload,
        *,
        episode: Optional[int] = None,
        nodes: Optional[int] = None,
        price: str = "libra+$",
        alpha: Optional[float] = None,
        beta: Optional[float] = None,
        weight: Optional[float] = None,
        action: str = "admit",
        factors: Optional[Sequence[float]] = None,
        arrival_delay: Optional[float] = None,
        high_urgency: Optional[float] = None,
        inaccuracy: Optional[float] = None,
        shaping: bool = False,
    ) -> "MarketCore": ...
    def reset(
        self,
        seed: Optional[int] = None,
        start: Optional[int] = None,
        qos_seed: Optional[int] = None,
    ) -> np.ndarray: ...
    def step(
        self, action: Any
    ) -> Tuple[np.ndarray, float, bool, str, str, Optional[float], Optional[float]]: ...
    @staticmethod
    def feature_names() -> List[str]: ...
    @property
    def factors(self) -> List[float]: ...
    @property
    def action(self) -> str: ...
    @property
    def price(self) -> str: ...
    @property
    def nodes(self) -> int: ...
    @property
    def episode(self) -> int: ...
    @property
    def start(self) -> int: ...
    @property
    def qos_seed(self) -> int: ...
    @property
    def decided(self) -> int: ...
    def __len__(self) -> int: ...
    def jobs(self) -> Dict[str, List[object]]: ...
    def score(self) -> Dict[str, float]: ...
    def reference(self, policy: Optional[str] = None) -> Dict[str, float]: ...

def load(
    trace: _Path,
    *,
    estimate: str = "requested",
    lenient: bool = False,
    procs: Optional[int] = None,
    root: Optional[_Path] = None,
    stand_in: bool = False,
    seed: Optional[int] = None,
) -> Workload: ...
def simulate(
    workload: Workload,
    policy: str = "easy",
    *,
    order: str = "arrival",
    overrun: str = "kill",
    bsld_bound: Optional[int] = None,
) -> Schedule: ...
def run_config(
    path: _Path,
    *,
    threads: Optional[int] = None,
    root: Optional[_Path] = None,
    stand_in: bool = False,
) -> Tuple[str, List[Tuple[str, str]]]: ...
def config_of(id: str, *, root: Optional[_Path] = None) -> str: ...

# How errors quote a value: its repr(), shortened past 300 characters.
def shown(value: object) -> str: ...

# The papers (src/papers.rs): (tables, summary), each table a list of
# (column, dtype, values).
_PaperOutput = Tuple[Dict[str, List[Tuple[str, str, List[object]]]], Dict[str, float]]

def paper_pricing(
    workload: Workload, policy: str, options: Mapping[str, object], *, seed: int, repetition: int
) -> _PaperOutput: ...
def paper_adaptive(
    workload: Workload, variant: str, options: Mapping[str, object], *, seed: int, repetition: int
) -> _PaperOutput: ...
def paper_provisioning(
    workload: Workload, policy: str, options: Mapping[str, object], *, seed: int, repetition: int
) -> _PaperOutput: ...
def paper_utility(options: Dict[str, object], *, seed: int, repetition: int) -> _PaperOutput: ...
