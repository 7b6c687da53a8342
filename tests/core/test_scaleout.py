"""The evaluation code runs unchanged on a cluster through joblib's backends (Dask, Ray).

``repro.core.runner.cross_validate`` only hands its tasks to ``joblib.Parallel``; under
``joblib.parallel_config(backend="dask")`` they go to a ``dask.distributed`` cluster.
The folds, the learners and their seeds are the same, so every number but the fit time
must be identical to a local run.
"""

from __future__ import annotations

import pandas as pd
import pytest

joblib = pytest.importorskip("joblib")

from repro.core.runner import cross_validate  # noqa: E402
from repro.peers.learners import TreePeer  # noqa: E402
from rulelab import OneRule, SetCoverRules  # noqa: E402

pytestmark = pytest.mark.data

DATASETS = ["banknote"]
COMPARED = ["dataset", "method", "fold", "error", "train_error", "n_rules", "n_terms"]


def _methods() -> dict:
    return {
        "1Rule": OneRule(),
        "RuSC": SetCoverRules(max_rules=3),
        "CART-d2": TreePeer(max_depth=2, random_state=0),
    }


def _cv(**kwargs) -> pd.DataFrame:
    return cross_validate(
        _methods(), DATASETS, n_splits=3, random_state=0, cache=False, progress=False, **kwargs
    )[COMPARED]


@pytest.fixture(scope="module")
def local_results() -> pd.DataFrame:
    return _cv(n_jobs=1)


def test_cross_validation_on_a_dask_cluster_equals_the_local_run(local_results):
    distributed = pytest.importorskip("dask.distributed")
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        with joblib.parallel_config(backend="dask"), distributed.get_task_stream(client) as stream:
            on_dask = _cv(n_jobs=2)
        # The tasks really went through the cluster's workers, not a local fallback.
        ran = len(stream.data)
    assert len(on_dask) == len(DATASETS) * len(_methods()) * 3
    assert ran > 0
    pd.testing.assert_frame_equal(on_dask, local_results)


def test_cross_validation_on_ray_equals_the_local_run(local_results):
    ray = pytest.importorskip("ray")
    from ray.util.joblib import register_ray

    register_ray()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        with joblib.parallel_config(backend="ray"):
            on_ray = _cv(n_jobs=2)
    finally:
        ray.shutdown()
    pd.testing.assert_frame_equal(on_ray, local_results)
