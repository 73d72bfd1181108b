"""DiagnosticsService: an echo through the whole harness, the baseline of `make bench`."""

from __future__ import annotations

from typing import Any

from gamehall.internal.v1 import diagnostics_pb2, diagnostics_pb2_grpc

SERVICE_NAME = diagnostics_pb2.DESCRIPTOR.services_by_name["DiagnosticsService"].full_name


class DiagnosticsServicer(diagnostics_pb2_grpc.DiagnosticsServiceServicer):
    async def Echo(self, request: diagnostics_pb2.EchoRequest, context: Any) -> diagnostics_pb2.EchoResponse:
        return diagnostics_pb2.EchoResponse(payload=request.payload)
