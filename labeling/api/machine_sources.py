"""GET /api/machine-sources/: every suggestion source this server knows
(labeling.rules.machine_sources), for the forms that pick some (the export's auto_sources, the
explorer's verdict filter)."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from labeling.exporters.options import AUTO_PRIORITY
from labeling.rules.machine_sources import machine_sources_listed


class MachineSourceOutput(serializers.Serializer):
    name = serializers.CharField(help_text="What suggestions carry and auto_sources names.")
    label = serializers.CharField()
    plugin = serializers.BooleanField(help_text="An installed engine plug-in's source.")
    default = serializers.BooleanField(
        help_text="In an export's default auto_sources (filters.auto_sources left out)."
    )


class MachineSourceListApi(APIView):
    @extend_schema(operation_id="machine_sources_list", responses=MachineSourceOutput(many=True))
    def get(self, request):
        """The built-in sources in the export's default priority order, then the other
        built-ins, then the installed plug-ins: exactly the names filters.auto_sources takes."""
        return Response(MachineSourceOutput(machine_sources_listed(AUTO_PRIORITY), many=True).data)
