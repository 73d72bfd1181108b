from gamehall_sdk.v1 import common_pb2 as _common_pb2
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class DescribeGameRequest(_message.Message):
    __slots__ = ("skip_view_schema",)
    SKIP_VIEW_SCHEMA_FIELD_NUMBER: _ClassVar[int]
    skip_view_schema: bool
    def __init__(self, skip_view_schema: _Optional[bool] = ...) -> None: ...

class DescribeGameResponse(_message.Message):
    __slots__ = ("game",)
    GAME_FIELD_NUMBER: _ClassVar[int]
    game: _common_pb2.GameDescriptor
    def __init__(self, game: _Optional[_Union[_common_pb2.GameDescriptor, _Mapping]] = ...) -> None: ...
