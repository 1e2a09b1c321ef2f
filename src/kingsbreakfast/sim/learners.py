"""The two learners of the master bot's training: the same network and the same Adam
steps on mean squared error, in PyTorch or in plain numpy.

PyTorch (the ``train`` extra, CPU, one thread) trained the shipped weights; numpy needs
nothing beyond the ``batch`` extra, so the training loop also runs, and is tested, where
PyTorch is not installed. Both start from PyTorch's default initialisation of a linear
layer (uniform in +-1/sqrt(inputs)), from their own random generators, so the two give
different, equally good networks for one seed.
"""

from __future__ import annotations

import math
from typing import Any, Protocol

import numpy as np

Array = np.ndarray[Any, Any]


class Learner(Protocol):
    def layers(self) -> list[Array]:
        """w1, b1, w2, b2, w3, b3 as the bot reads them: float32 values in float64 arrays,
        weights as (inputs, outputs)."""

    def set_step_size(self, rate: float) -> None: ...

    def load(self, layers: list[Array]) -> None:
        """Start from these layers (a checkpoint) instead of the random initialisation."""

    def step(self, x: Array, y: Array) -> float:
        """One Adam step on the batch; the batch's loss before the step."""


class TorchLearner:
    def __init__(self, inputs: int, hidden: int, rate: float, seed: int) -> None:
        # PyTorch is optional (the train extra): where it is missing, so are its types
        import torch  # type: ignore[import-not-found, unused-ignore]
        from torch import nn  # type: ignore[import-not-found, unused-ignore]

        torch.manual_seed(seed)
        torch.set_num_threads(1)
        self._torch: Any = torch
        self.net: Any = nn.Sequential(
            nn.Linear(inputs, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU(),
            nn.Linear(hidden, 2),
        )
        self.optimizer: Any = torch.optim.Adam(self.net.parameters(), lr=rate)

    def layers(self) -> list[Array]:
        out = []
        for layer in (self.net[0], self.net[2], self.net[4]):
            out.append(_stored(layer.weight.detach().numpy()).T.copy())
            out.append(_stored(layer.bias.detach().numpy()))
        return out

    def set_step_size(self, rate: float) -> None:
        for group in self.optimizer.param_groups:
            group["lr"] = rate

    def load(self, layers: list[Array]) -> None:
        with self._torch.no_grad():
            for k, layer in enumerate((self.net[0], self.net[2], self.net[4])):
                layer.weight.copy_(self._torch.from_numpy(np.asarray(layers[2 * k].T, np.float32)))
                layer.bias.copy_(self._torch.from_numpy(np.asarray(layers[2 * k + 1], np.float32)))

    def step(self, x: Array, y: Array) -> float:
        pred = self.net(self._torch.from_numpy(x))
        loss = ((pred - self._torch.from_numpy(y)) ** 2).mean()
        self.optimizer.zero_grad()
        loss.backward()
        self.optimizer.step()
        return float(loss.detach())


class NumpyLearner:
    """Two ReLU layers and a linear one, back-propagated by hand, with Adam (PyTorch's
    defaults: betas 0.9 and 0.999, epsilon 1e-8), in float32."""

    BETA1 = 0.9
    BETA2 = 0.999
    EPSILON = 1e-8

    def __init__(self, inputs: int, hidden: int, rate: float, seed: int) -> None:
        rng = np.random.default_rng([seed, 14])
        self.params: list[Array] = []
        for fan_in, fan_out in ((inputs, hidden), (hidden, hidden), (hidden, 2)):
            bound = 1.0 / math.sqrt(fan_in)
            self.params.append(rng.uniform(-bound, bound, (fan_in, fan_out)).astype(np.float32))
            self.params.append(rng.uniform(-bound, bound, fan_out).astype(np.float32))
        self.moments = [np.zeros_like(p) for p in self.params]
        self.squares = [np.zeros_like(p) for p in self.params]
        self.rate = rate
        self.steps = 0

    def layers(self) -> list[Array]:
        return [_stored(p).copy() for p in self.params]

    def set_step_size(self, rate: float) -> None:
        self.rate = rate

    def load(self, layers: list[Array]) -> None:
        self.params = [np.asarray(layer, np.float32).copy() for layer in layers]

    def gradients(self, x: Array, y: Array) -> tuple[float, list[Array]]:
        """The batch's loss and its gradient for each parameter, by back-propagation."""
        w1, b1, w2, b2, w3, b3 = self.params
        a1 = x @ w1 + b1
        h1 = np.maximum(a1, 0.0)
        a2 = h1 @ w2 + b2
        h2 = np.maximum(a2, 0.0)
        out = h2 @ w3 + b3
        diff = out - y
        loss = float(np.mean(diff * diff))
        d_out = (2.0 / diff.size) * diff
        d_h2 = (d_out @ w3.T) * (a2 > 0.0)
        d_h1 = (d_h2 @ w2.T) * (a1 > 0.0)
        return loss, [x.T @ d_h1, d_h1.sum(0), h1.T @ d_h2, d_h2.sum(0), h2.T @ d_out,
                      d_out.sum(0)]

    def step(self, x: Array, y: Array) -> float:
        loss, grads = self.gradients(x, y)
        self.steps += 1
        fix1 = 1.0 - self.BETA1**self.steps
        fix2 = 1.0 - self.BETA2**self.steps
        for param, grad, m, v in zip(self.params, grads, self.moments, self.squares,
                                     strict=True):
            m *= self.BETA1
            m += (1.0 - self.BETA1) * grad
            v *= self.BETA2
            v += (1.0 - self.BETA2) * grad * grad
            param -= (self.rate / fix1) * m / (np.sqrt(v / fix2) + self.EPSILON)
        return loss


def _stored(values: Array) -> Array:
    """What the weights file keeps: float32 values, handed on as float64."""
    return np.asarray(values, np.float32).astype(np.float64)


def make_learner(backend: str, inputs: int, hidden: int, rate: float, seed: int) -> Learner:
    if backend == "torch":
        return TorchLearner(inputs, hidden, rate, seed)
    if backend == "numpy":
        return NumpyLearner(inputs, hidden, rate, seed)
    raise ValueError(f"unknown learner {backend!r}: choose torch or numpy")
