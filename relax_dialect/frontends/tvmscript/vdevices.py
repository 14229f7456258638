"""Virtual devices in TVMScript: ``I.module_global_infos({"vdevice": [I.vdevice(...),
...]})`` declares them; a tensor annotation's ``vdevice`` and ``R.to_vdevice``'s
destination refer to one as TVM's parser does (``LookupVDevice``): ``"cuda"`` or
``"cuda:1"`` is the first or second declared device of target kind ``cuda``,
``"vdevice:2"`` the third declared device. A third part, the memory scope
(``"cuda:1:global"``, as TVM prints it), must be that device's: TVM ignores it,
this frontend rejects a scope that contradicts the declaration.
"""

from __future__ import annotations

import ast

from ...vdevice import VDeviceAttr, VDeviceRef, lookup, reference_to
from .annotations import TVMScriptError, dotted_name, literal


def read_global_infos(node: ast.Call, ir: str) -> tuple[VDeviceAttr, ...]:
    """The devices ``I.module_global_infos({"vdevice": [...]})`` declares."""
    infos = node.args[0] if len(node.args) == 1 and not node.keywords else None
    if not isinstance(infos, ast.Dict):
        raise TVMScriptError(node, f"{ir}.module_global_infos takes a dictionary")
    vdevices: tuple[VDeviceAttr, ...] = ()
    for key, value in zip(infos.keys, infos.values, strict=True):
        if literal(key) != "vdevice":
            raise TVMScriptError(key or node, "the only global info supported is 'vdevice'")
        if not isinstance(value, ast.List | ast.Tuple):
            raise TVMScriptError(value, f'"vdevice" takes a list of {ir}.vdevice(...)')
        vdevices = tuple(read_vdevice(element, ir) for element in value.elts)
    return vdevices


def read_vdevice(node: ast.expr, ir: str) -> VDeviceAttr:
    """``I.vdevice(target, vdevice_id=0, memory_scope="global")``; the target is a
    target string (``"llvm"``) or its configuration (``{"kind": "cuda", ...}``)."""
    if not isinstance(node, ast.Call) or dotted_name(node.func) != f"{ir}.vdevice":
        raise TVMScriptError(node, f"expected {ir}.vdevice(target, vdevice_id, memory_scope)")
    names = ("target", "vdevice_id", "memory_scope")
    if len(node.args) > len(names):
        raise TVMScriptError(node, f"{ir}.vdevice takes at most 3 arguments")
    given = dict(zip(names, node.args, strict=False))
    for keyword in node.keywords:
        if keyword.arg not in names or keyword.arg in given:
            raise TVMScriptError(keyword, f"unexpected argument '{keyword.arg}'")
        given[keyword.arg] = keyword.value
    target = literal(given.get("target"))
    vdevice_id = literal(given.get("vdevice_id", ast.Constant(0)))
    scope = literal(given.get("memory_scope", ast.Constant("global")))
    if not _is_target(target):
        raise TVMScriptError(node, "a virtual device's target is a target string or dictionary")
    if not isinstance(vdevice_id, int) or isinstance(vdevice_id, bool):
        raise TVMScriptError(given["vdevice_id"], "vdevice_id must be an integer")
    if not isinstance(scope, str) or not scope:
        raise TVMScriptError(given["memory_scope"], "memory_scope must be a non-empty string")
    vdevice = VDeviceAttr(target, vdevice_id, scope)  # pyright: ignore[reportArgumentType]
    if not vdevice.kind:
        raise TVMScriptError(given["target"], "the target names no kind")
    return vdevice


def _is_target(value: object) -> bool:
    """A target string, or a configuration of strings, integers, booleans and lists."""
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_target(v) for k, v in value.items())
    if isinstance(value, list):
        return all(_is_target(v) for v in value)
    return isinstance(value, str | int | bool)


def reference(vdevices: tuple[VDeviceAttr, ...], node: ast.expr, ir: str) -> VDeviceRef:
    """The declared device ``node`` names: a ``"kind:index[:scope]"`` string or an
    ``I.vdevice(...)`` equal to a declared one."""
    if isinstance(node, ast.Call):
        wanted = read_vdevice(node, ir)
        if wanted not in vdevices:
            raise TVMScriptError(node, "this virtual device is not declared in the module")
        return reference_to(vdevices, wanted)
    text = literal(node)
    if not isinstance(text, str):
        raise TVMScriptError(node, 'expected a virtual device such as "llvm:0"')
    try:
        written = VDeviceRef.parse(text)
    except ValueError as error:
        raise TVMScriptError(node, f"bad virtual device: {error}") from None
    found = lookup(vdevices, written.kind, written.index)
    if found is None:
        declared = ", ".join(str(reference_to(vdevices, d)) for d in vdevices)
        raise TVMScriptError(
            node, f"virtual device '{text}' is not declared (declared: {declared})"
        )
    if text.count(":") == 2 and written.scope != found.scope:
        raise TVMScriptError(
            node, f"virtual device '{text}': the declared device has memory scope '{found.scope}'"
        )
    return reference_to(vdevices, found)
