"""The one compiled part of rocm-miner: the instance walk's body reader (miner/parse/_flat.c)."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("miner.parse._flat", ["miner/parse/_flat.c"], extra_compile_args=["-O2"])])
