"""Data-parallel training under torchrun (two CPU processes, gloo): the transformers LM loop and the
tagger loop take the same steps as one process on the whole batch, both processes end with the same
weights, and only the main process writes checkpoints."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch

from synthdeid import SynthdeidError
from synthdeid.generation import distributed

pytestmark = pytest.mark.slow  # trains under torchrun (`make test-fast` leaves it out)

WORKER = Path(__file__).with_name("distributed_worker.py")


def run_worker(out: Path, processes: int) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("RANK", "WORLD_SIZE", "LOCAL_RANK", "MASTER_ADDR", "MASTER_PORT")
    }
    env.update(
        OMP_NUM_THREADS="1", CI="true", PYTHONPATH=os.pathsep.join([str(WORKER.parent), env.get("PYTHONPATH", "")])
    )
    cmd = (
        [sys.executable, str(WORKER), str(out)]
        if processes == 1
        else [
            sys.executable,
            "-m",
            "torch.distributed.run",
            "--standalone",
            f"--nproc_per_node={processes}",
            str(WORKER),
            str(out),
        ]
    )
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    one, two = tmp_path_factory.mktemp("one"), tmp_path_factory.mktemp("two")
    run_worker(one, 1)
    run_worker(two, 2)
    return {"one": one, "two": two}


def free_of_noise(name: str, weight: torch.Tensor) -> torch.Tensor:
    """All entries but the attention key biases: softmax ignores them, so their true gradient is 0
    and Adam turns rounding noise (which differs with the summation order) into full-size steps."""
    keep = torch.ones_like(weight, dtype=torch.bool)
    if name.endswith("attention.self.key.bias"):
        keep[:] = False
    elif name.endswith("attn.c_attn.bias"):  # GPT-2: query, key, value biases side by side
        third = weight.shape[0] // 3
        keep[third : 2 * third] = False
    return keep


@pytest.mark.parametrize("model", ["lm", "tagger"])
def test_two_processes_train_like_one(runs: dict[str, Path], model: str) -> None:
    single = torch.load(runs["one"] / f"rank0-{model}.pt")
    main, other = (torch.load(runs["two"] / f"rank{r}-{model}.pt") for r in (0, 1))
    for name, weight in single.items():
        assert torch.equal(main[name], other[name]), name  # the processes never drift apart
        keep = free_of_noise(name, weight)
        # the same steps, the gradients summed in another order
        assert torch.allclose(main[name][keep], weight[keep], atol=1e-6, rtol=1e-4), name
    trained = [n for n in single if "weight" in n and not torch.equal(single[n], torch.zeros_like(single[n]))]
    assert trained  # a real model, not an empty state


@pytest.mark.parametrize("model", ["lm", "tagger"])
def test_the_summed_shares_are_the_whole_batchs_gradient(runs: dict[str, Path], model: str) -> None:
    single = torch.load(runs["one"] / "rank0-grads.pt")[model]
    for rank in (0, 1):
        summed = torch.load(runs["two"] / f"rank{rank}-grads.pt")[model]
        for name, grad in single.items():  # scale included: Adam would hide a wrong scale in the weights
            assert torch.allclose(summed[name], grad, atol=1e-7, rtol=1e-4), name
    assert any(g.abs().max() > 1e-3 for g in single.values())


def test_only_the_main_process_writes_checkpoints(runs: dict[str, Path]) -> None:
    assert (runs["two"] / "lm" / "checkpoint.pt").exists()
    assert sorted(p.name for p in runs["two"].iterdir()) == [
        "lm",
        *(f"rank{r}-{m}.pt" for r in (0, 1) for m in ("grads", "lm", "tagger")),
    ]


def test_without_torchrun_everything_is_local(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for key in ("RANK", "WORLD_SIZE"):
        monkeypatch.delenv(key, raising=False)
    assert (distributed.world_size(), distributed.rank(), distributed.is_main()) == (1, 0, True)
    assert distributed.shard([1, 2, 3]) == [1, 2, 3] and distributed.all_sum(2.5) == 2.5
    assert distributed.output_dir(tmp_path) == tmp_path


def test_shards_and_output_dirs_of_another_rank(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WORLD_SIZE", "3")
    monkeypatch.setenv("RANK", "1")
    assert distributed.shard(list(range(8))) == [1, 4, 7] and not distributed.is_main()
    other = distributed.output_dir(tmp_path / "model")
    assert other != tmp_path / "model" and other.is_dir() and "rank1" in other.name


def test_dp_training_refuses_torchrun(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from synthdeid.generation.hf_lm.dp_loop import train_dp

    monkeypatch.setenv("WORLD_SIZE", "2")
    with pytest.raises(SynthdeidError, match="DP-SGD training runs in one process"):
        train_dp(None, [], [], 1, 1e-3, None, None, tmp_path, "f")  # type: ignore[arg-type]


def test_device_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    assert all(map(distributed.valid_device, ("auto", "cpu", "cuda", "cuda:1")))
    assert not any(map(distributed.valid_device, ("gpu", "cuda:", "cuda:x", "", None)))
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert distributed.torch_device("auto") == distributed.torch_device("cpu") == torch.device("cpu")
    with pytest.raises(SynthdeidError, match="'cuda:1': this machine has no CUDA GPU.*set device: auto or cpu"):
        distributed.torch_device("cuda:1")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 3)  # torchrun's init set LOCAL_RANK 3's GPU
    assert distributed.torch_device("auto") == distributed.torch_device("cuda") == torch.device("cuda", 3)
    assert distributed.torch_device("cuda:1") == torch.device("cuda", 1)
