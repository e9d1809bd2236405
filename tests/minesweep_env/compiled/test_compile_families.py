"""The warm-up's compile families: modules that share callees compile in one process.

numba compiles a kernel's callees in the process that compiles the kernel, so a
module split from the modules it imports makes two processes compile the same
callees. These tests read the import graph only (nothing is compiled).
"""

from minesweep_env.compiled import kernel_modules, warm_up
from minesweep_env.compiled.registry import kernel_imports


def test_imports_are_read_from_the_sources_relative_ones_included() -> None:
    """Absolute and relative imports of kernel modules are both found, by registered name."""
    imports = kernel_imports()
    assert set(imports) == set(kernel_modules())
    assert imports["counting-groups"] == set()  # a leaf: the shared constants are plain Python
    assert imports["counting"] == {"counting-groups", "counting-passes"}
    assert "complete-kept" in imports["board-batch"]  # from ..solver.rules.complete_kept_compiled
    assert "agent-float-weights" in imports["greedy-float-choice"]  # from ..float_weights
    assert "counting" in imports["search-lookahead"]  # from minesweep_env.solver...
    assert "greedy-choice" in imports["search-lookahead"]  # from semiautomines_agents.greedy...


def test_what_a_module_compiles_reaches_through_its_imports() -> None:
    closures = warm_up.compiled_with({"a": {"b"}, "b": {"c"}, "c": set(), "d": {"d", "a"}})
    assert closures["a"] == {"a", "b", "c"} and closures["c"] == {"c"}
    assert closures["d"] == {"a", "b", "c", "d"}


def test_two_chains_over_a_shared_leaf_go_to_two_processes_whole() -> None:
    """Each chain in one family, the small independent module where it evens the load,
    and within a family every module after those it imports."""
    imports = {
        "leaf": set(),
        "rules": {"leaf"},
        "play": {"rules"},
        "batch": {"play", "rules"},
        "weights": {"leaf"},
        "choice": {"weights"},
        "search": {"choice", "leaf"},
        "view": set(),
    }
    sizes = {"leaf": 50, "rules": 30, "play": 30, "batch": 30,
             "weights": 30, "choice": 30, "search": 20, "view": 10}
    found = warm_up.families(imports, sizes, 2)
    assert sorted(map(sorted, found)) == [
        ["batch", "leaf", "play", "rules"],
        ["choice", "search", "view", "weights"],
    ]
    for family in found:
        for position, name in enumerate(family):
            assert not imports[name] & set(family[position + 1:]), family


def test_one_job_is_one_family_in_import_order() -> None:
    imports = {"a": {"b"}, "b": {"c"}, "c": set()}
    assert warm_up.families(imports, {"a": 1, "b": 1, "c": 1}, 1) == [["c", "b", "a"]]


def test_the_registered_chains_each_compile_in_one_process() -> None:
    """The env's batch kernels with the rule kernels they call, the greedy agent's float
    choice with the float weights it calls: split, each pair compiled its callees twice."""
    found = warm_up.compile_groups(2)
    family_of = {name: index for index, family in enumerate(found) for name in family}
    for caller, callee in (
        ("board-batch-step", "board-batch"),
        ("board-batch", "complete-kept"),
        ("complete-kept", "complete-play"),
        ("greedy-float-choice", "agent-float-weights"),
        ("greedy-float-choice", "greedy-choice"),
    ):
        assert family_of[caller] == family_of[callee], (caller, callee, found)
