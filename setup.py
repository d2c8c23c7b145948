"""Builds the extension topoplan._topoplan with the project's CMake (setuptools drives it).

Only the module's target is built (no CLI, tests or benchmarks), in build/python of the checkout,
so that a second `pip install` reuses it. Extra CMake arguments: TOPOPLAN_CMAKE_ARGS.
TOPOPLAN_PYTHON_BUILD_DIR names a build tree already configured with TOPOPLAN_BUILD_PYTHON=ON
instead (no configure step; the module is built there).
"""
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        prebuilt = os.environ.get("TOPOPLAN_PYTHON_BUILD_DIR", "")
        if prebuilt:
            # A build tree configured with TOPOPLAN_BUILD_PYTHON=ON (CI's, say): the module is
            # built there, next to the libraries that tree already compiled.
            build_dir = Path(prebuilt).resolve()
            jobs = str(os.cpu_count() or 2)
            subprocess.run(["cmake", "--build", str(build_dir), "--target", "_topoplan", "-j", jobs],
                           check=True)
            self._install(ext, build_dir)
            return
        build_dir = ROOT / "build" / "python"
        args = [
            "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DTOPOPLAN_BUILD_PYTHON=ON",
            "-DTOPOPLAN_BUILD_C_API=OFF",
            "-DTOPOPLAN_BUILD_TOOLS=OFF",
            "-DTOPOPLAN_BUILD_TESTS=OFF",
            "-DTOPOPLAN_BUILD_BENCHMARKS=OFF",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        if shutil.which("ninja"):
            args += ["-G", "Ninja"]
        if shutil.which("ccache"):
            args += ["-DCMAKE_CXX_COMPILER_LAUNCHER=ccache"]
        args += shlex.split(os.environ.get("TOPOPLAN_CMAKE_ARGS", ""))
        subprocess.run(["cmake", *args], check=True)
        jobs = str(os.cpu_count() or 2)
        subprocess.run(["cmake", "--build", str(build_dir), "--target", "_topoplan", "-j", jobs],
                       check=True)
        self._install(ext, build_dir)

    def _install(self, ext, build_dir):
        built = next((build_dir / "python" / "topoplan").glob("_topoplan*.so"))
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(ext_modules=[CMakeExtension("topoplan._topoplan")], cmdclass={"build_ext": CMakeBuild})
