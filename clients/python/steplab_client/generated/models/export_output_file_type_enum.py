from enum import StrEnum


class ExportOutputFileTypeEnum(StrEnum):
    JSONL = "jsonl"
    JSONL_GZ = "jsonl.gz"
    PARQUET = "parquet"

    def __str__(self) -> str:
        return str(self.value)
