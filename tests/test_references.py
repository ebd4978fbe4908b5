"""Every :func:, :meth: and :class: reference in the package's docstrings names something
that exists: looked up from the module it is written in (its names, then its package's,
then snakecube's), and, for a function a package's face exports, from that face too (where
a reader of ``help(snakecube.census.census)`` looks)."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import snakecube

ROLE = re.compile(r":(?:func|meth|class|attr|data|mod):`~?([A-Za-z_][\w.]*)(?:\(\))?`")


def _modules():
    for info in pkgutil.walk_packages(snakecube.__path__, "snakecube."):
        try:
            yield importlib.import_module(info.name)
        except ImportError:  # an extra that is not installed (dask, pysat...)
            continue


def _resolves(name: str, places) -> bool:
    for place in places:
        obj = place
        for part in name.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                break
        if obj is not None:
            return True
    try:  # a full dotted name: a module, or a module and what it holds
        importlib.import_module(name)
        return True
    except ImportError:
        pass
    try:
        head, _, tail = name.rpartition(".")
        return bool(head) and hasattr(importlib.import_module(head), tail)
    except ImportError:
        return False


def _docstrings(module):
    yield module, module.__doc__ or ""
    for _, obj in inspect.getmembers(module):
        if getattr(obj, "__module__", None) != module.__name__:
            continue
        if inspect.isfunction(obj) or inspect.isclass(obj):
            yield obj, obj.__doc__ or ""
        if inspect.isclass(obj):
            for _, member in inspect.getmembers(obj):
                if inspect.isfunction(member) and member.__qualname__.startswith(obj.__name__):
                    yield member, member.__doc__ or ""


def test_every_reference_resolves():
    missing = []
    for module in _modules():
        package = importlib.import_module(module.__name__.rpartition(".")[0] or "snakecube")
        for obj, doc in _docstrings(module):
            places = [module, package, snakecube]
            if inspect.isclass(obj):
                places.insert(0, obj)
            owner = getattr(obj, "__qualname__", "").split(".")[0]
            if owner and hasattr(module, owner) and owner != getattr(obj, "__name__", None):
                places.insert(0, getattr(module, owner))
            faces = (
                [package] if getattr(obj, "__name__", "") in getattr(package, "__all__", ()) else []
            )
            for name in ROLE.findall(doc):
                if not _resolves(name, places):
                    missing.append(f"{module.__name__}: {getattr(obj, '__qualname__', '')}: {name}")
                for face in faces:
                    if not _resolves(name, [face, snakecube]):
                        missing.append(f"{face.__name__} (its face): {obj.__name__}: {name}")
    assert missing == [], "\n".join(missing)
