"""Contains all the data models used in inputs/outputs"""

from .accepted import Accepted
from .agent_phone import AgentPhone
from .attachment_view import AttachmentView
from .attempt_view import AttemptView
from .campaign_view import CampaignView
from .campaign_view_audience import CampaignViewAudience
from .campaign_view_data import CampaignViewData
from .campaign_view_metadata import CampaignViewMetadata
from .campaign_view_skipped import CampaignViewSkipped
from .contact_view import ContactView
from .contact_view_attributes import ContactViewAttributes
from .counts import Counts
from .create_campaign import CreateCampaign
from .create_campaign_data_type_0 import CreateCampaignDataType0
from .create_campaign_metadata_type_0 import CreateCampaignMetadataType0
from .create_contact import CreateContact
from .create_contact_attributes_type_0 import CreateContactAttributesType0
from .create_key import CreateKey
from .create_opt_out import CreateOptOut
from .create_phone import CreatePhone
from .create_template import CreateTemplate
from .create_tenant import CreateTenant
from .create_webhook import CreateWebhook
from .data_body_accepted import DataBodyAccepted
from .data_body_accepted_data import DataBodyAcceptedData
from .data_body_agent_phone import DataBodyAgentPhone
from .data_body_agent_phone_data import DataBodyAgentPhoneData
from .data_body_campaign_view import DataBodyCampaignView
from .data_body_campaign_view_data import DataBodyCampaignViewData
from .data_body_campaign_view_data_audience import DataBodyCampaignViewDataAudience
from .data_body_campaign_view_data_data import DataBodyCampaignViewDataData
from .data_body_campaign_view_data_metadata import DataBodyCampaignViewDataMetadata
from .data_body_campaign_view_data_skipped import DataBodyCampaignViewDataSkipped
from .data_body_contact_view import DataBodyContactView
from .data_body_contact_view_data import DataBodyContactViewData
from .data_body_contact_view_data_attributes import DataBodyContactViewDataAttributes
from .data_body_deleted import DataBodyDeleted
from .data_body_deleted_data import DataBodyDeletedData
from .data_body_delivery_view import DataBodyDeliveryView
from .data_body_delivery_view_data import DataBodyDeliveryViewData
from .data_body_delivery_view_data_payload import DataBodyDeliveryViewDataPayload
from .data_body_detection_ack import DataBodyDetectionAck
from .data_body_detection_ack_data import DataBodyDetectionAckData
from .data_body_detection_view import DataBodyDetectionView
from .data_body_detection_view_data import DataBodyDetectionViewData
from .data_body_key_active import DataBodyKeyActive
from .data_body_key_active_data import DataBodyKeyActiveData
from .data_body_key_created import DataBodyKeyCreated
from .data_body_key_created_data import DataBodyKeyCreatedData
from .data_body_media_uploaded import DataBodyMediaUploaded
from .data_body_media_uploaded_data import DataBodyMediaUploadedData
from .data_body_media_view import DataBodyMediaView
from .data_body_media_view_data import DataBodyMediaViewData
from .data_body_message_view import DataBodyMessageView
from .data_body_message_view_data import DataBodyMessageViewData
from .data_body_message_view_data_metadata import DataBodyMessageViewDataMetadata
from .data_body_operator_phone import DataBodyOperatorPhone
from .data_body_operator_phone_data import DataBodyOperatorPhoneData
from .data_body_opt_out_removed import DataBodyOptOutRemoved
from .data_body_opt_out_removed_data import DataBodyOptOutRemovedData
from .data_body_opt_out_view import DataBodyOptOutView
from .data_body_opt_out_view_data import DataBodyOptOutViewData
from .data_body_recovering import DataBodyRecovering
from .data_body_recovering_data import DataBodyRecoveringData
from .data_body_released import DataBodyReleased
from .data_body_released_data import DataBodyReleasedData
from .data_body_revoked import DataBodyRevoked
from .data_body_revoked_data import DataBodyRevokedData
from .data_body_secret_rotated import DataBodySecretRotated
from .data_body_secret_rotated_data import DataBodySecretRotatedData
from .data_body_settings_view import DataBodySettingsView
from .data_body_settings_view_data import DataBodySettingsViewData
from .data_body_status import DataBodyStatus
from .data_body_status_data import DataBodyStatusData
from .data_body_template_view import DataBodyTemplateView
from .data_body_template_view_data import DataBodyTemplateViewData
from .data_body_tenant_created import DataBodyTenantCreated
from .data_body_tenant_created_data import DataBodyTenantCreatedData
from .data_body_tenant_view import DataBodyTenantView
from .data_body_tenant_view_data import DataBodyTenantViewData
from .data_body_test_sent import DataBodyTestSent
from .data_body_test_sent_data import DataBodyTestSentData
from .data_body_vec_job_view import DataBodyVecJobView
from .data_body_vec_job_view_data_item import DataBodyVecJobViewDataItem
from .data_body_vec_node_view import DataBodyVecNodeView
from .data_body_vec_node_view_data_item import DataBodyVecNodeViewDataItem
from .data_body_vec_operator_phone import DataBodyVecOperatorPhone
from .data_body_vec_operator_phone_data_item import DataBodyVecOperatorPhoneDataItem
from .data_body_vec_tenant_phone import DataBodyVecTenantPhone
from .data_body_vec_tenant_phone_data_item import DataBodyVecTenantPhoneDataItem
from .data_body_webhook_created import DataBodyWebhookCreated
from .data_body_webhook_created_data import DataBodyWebhookCreatedData
from .data_body_webhook_item import DataBodyWebhookItem
from .data_body_webhook_item_data import DataBodyWebhookItemData
from .deleted import Deleted
from .delivery_view import DeliveryView
from .delivery_view_payload import DeliveryViewPayload
from .detect_body import DetectBody
from .detection_ack import DetectionAck
from .detection_answer import DetectionAnswer
from .detection_view import DetectionView
from .error_body import ErrorBody
from .event_item import EventItem
from .events_body import EventsBody
from .failure_scope import FailureScope
from .inbound_body import InboundBody
from .job_channel import JobChannel
from .job_kind import JobKind
from .job_media import JobMedia
from .job_view import JobView
from .key_active import KeyActive
from .key_created import KeyCreated
from .key_item import KeyItem
from .list_body_campaign_view import ListBodyCampaignView
from .list_body_campaign_view_data_item import ListBodyCampaignViewDataItem
from .list_body_campaign_view_data_item_audience import ListBodyCampaignViewDataItemAudience
from .list_body_campaign_view_data_item_data import ListBodyCampaignViewDataItemData
from .list_body_campaign_view_data_item_metadata import ListBodyCampaignViewDataItemMetadata
from .list_body_campaign_view_data_item_skipped import ListBodyCampaignViewDataItemSkipped
from .list_body_contact_view import ListBodyContactView
from .list_body_contact_view_data_item import ListBodyContactViewDataItem
from .list_body_contact_view_data_item_attributes import ListBodyContactViewDataItemAttributes
from .list_body_delivery_view import ListBodyDeliveryView
from .list_body_delivery_view_data_item import ListBodyDeliveryViewDataItem
from .list_body_delivery_view_data_item_payload import ListBodyDeliveryViewDataItemPayload
from .list_body_key_item import ListBodyKeyItem
from .list_body_key_item_data_item import ListBodyKeyItemDataItem
from .list_body_message_view import ListBodyMessageView
from .list_body_message_view_data_item import ListBodyMessageViewDataItem
from .list_body_message_view_data_item_metadata import ListBodyMessageViewDataItemMetadata
from .list_body_opt_out_view import ListBodyOptOutView
from .list_body_opt_out_view_data_item import ListBodyOptOutViewDataItem
from .list_body_template_view import ListBodyTemplateView
from .list_body_template_view_data_item import ListBodyTemplateViewDataItem
from .list_body_tenant_view import ListBodyTenantView
from .list_body_tenant_view_data_item import ListBodyTenantViewDataItem
from .list_body_webhook_item import ListBodyWebhookItem
from .list_body_webhook_item_data_item import ListBodyWebhookItemDataItem
from .media_item_type_1 import MediaItemType1
from .media_uploaded import MediaUploaded
from .media_view import MediaView
from .message_view import MessageView
from .message_view_metadata import MessageViewMetadata
from .new_tenant_keys import NewTenantKeys
from .node_view import NodeView
from .operator_phone import OperatorPhone
from .opt_out_removed import OptOutRemoved
from .opt_out_view import OptOutView
from .patch_contact import PatchContact
from .patch_contact_attributes_type_0 import PatchContactAttributesType0
from .patch_phone import PatchPhone
from .patch_settings import PatchSettings
from .patch_template import PatchTemplate
from .patch_tenant_body import PatchTenantBody
from .patch_webhook import PatchWebhook
from .quiet_hours_body import QuietHoursBody
from .quiet_hours_patch_body import QuietHoursPatchBody
from .recover_body import RecoverBody
from .recovering import Recovering
from .release_body import ReleaseBody
from .released import Released
from .reported_status import ReportedStatus
from .requested_channel import RequestedChannel
from .rescue_key import RescueKey
from .revoked import Revoked
from .secret_rotated import SecretRotated
from .send_body import SendBody
from .send_body_data_type_0 import SendBodyDataType0
from .send_body_metadata_type_0 import SendBodyMetadataType0
from .settings_view import SettingsView
from .sim_body import SimBody
from .status import Status
from .status_body import StatusBody
from .template_view import TemplateView
from .tenant_created import TenantCreated
from .tenant_phone import TenantPhone
from .tenant_view import TenantView
from .test_sent import TestSent
from .usage_view import UsageView
from .used_channel import UsedChannel
from .webhook_created import WebhookCreated
from .webhook_item import WebhookItem

__all__ = (
    "Accepted",
    "AgentPhone",
    "AttachmentView",
    "AttemptView",
    "CampaignView",
    "CampaignViewAudience",
    "CampaignViewData",
    "CampaignViewMetadata",
    "CampaignViewSkipped",
    "ContactView",
    "ContactViewAttributes",
    "Counts",
    "CreateCampaign",
    "CreateCampaignDataType0",
    "CreateCampaignMetadataType0",
    "CreateContact",
    "CreateContactAttributesType0",
    "CreateKey",
    "CreateOptOut",
    "CreatePhone",
    "CreateTemplate",
    "CreateTenant",
    "CreateWebhook",
    "DataBodyAccepted",
    "DataBodyAcceptedData",
    "DataBodyAgentPhone",
    "DataBodyAgentPhoneData",
    "DataBodyCampaignView",
    "DataBodyCampaignViewData",
    "DataBodyCampaignViewDataAudience",
    "DataBodyCampaignViewDataData",
    "DataBodyCampaignViewDataMetadata",
    "DataBodyCampaignViewDataSkipped",
    "DataBodyContactView",
    "DataBodyContactViewData",
    "DataBodyContactViewDataAttributes",
    "DataBodyDeleted",
    "DataBodyDeletedData",
    "DataBodyDeliveryView",
    "DataBodyDeliveryViewData",
    "DataBodyDeliveryViewDataPayload",
    "DataBodyDetectionAck",
    "DataBodyDetectionAckData",
    "DataBodyDetectionView",
    "DataBodyDetectionViewData",
    "DataBodyKeyActive",
    "DataBodyKeyActiveData",
    "DataBodyKeyCreated",
    "DataBodyKeyCreatedData",
    "DataBodyMediaUploaded",
    "DataBodyMediaUploadedData",
    "DataBodyMediaView",
    "DataBodyMediaViewData",
    "DataBodyMessageView",
    "DataBodyMessageViewData",
    "DataBodyMessageViewDataMetadata",
    "DataBodyOperatorPhone",
    "DataBodyOperatorPhoneData",
    "DataBodyOptOutRemoved",
    "DataBodyOptOutRemovedData",
    "DataBodyOptOutView",
    "DataBodyOptOutViewData",
    "DataBodyRecovering",
    "DataBodyRecoveringData",
    "DataBodyReleased",
    "DataBodyReleasedData",
    "DataBodyRevoked",
    "DataBodyRevokedData",
    "DataBodySecretRotated",
    "DataBodySecretRotatedData",
    "DataBodySettingsView",
    "DataBodySettingsViewData",
    "DataBodyStatus",
    "DataBodyStatusData",
    "DataBodyTemplateView",
    "DataBodyTemplateViewData",
    "DataBodyTenantCreated",
    "DataBodyTenantCreatedData",
    "DataBodyTenantView",
    "DataBodyTenantViewData",
    "DataBodyTestSent",
    "DataBodyTestSentData",
    "DataBodyVecJobView",
    "DataBodyVecJobViewDataItem",
    "DataBodyVecNodeView",
    "DataBodyVecNodeViewDataItem",
    "DataBodyVecOperatorPhone",
    "DataBodyVecOperatorPhoneDataItem",
    "DataBodyVecTenantPhone",
    "DataBodyVecTenantPhoneDataItem",
    "DataBodyWebhookCreated",
    "DataBodyWebhookCreatedData",
    "DataBodyWebhookItem",
    "DataBodyWebhookItemData",
    "Deleted",
    "DeliveryView",
    "DeliveryViewPayload",
    "DetectBody",
    "DetectionAck",
    "DetectionAnswer",
    "DetectionView",
    "ErrorBody",
    "EventItem",
    "EventsBody",
    "FailureScope",
    "InboundBody",
    "JobChannel",
    "JobKind",
    "JobMedia",
    "JobView",
    "KeyActive",
    "KeyCreated",
    "KeyItem",
    "ListBodyCampaignView",
    "ListBodyCampaignViewDataItem",
    "ListBodyCampaignViewDataItemAudience",
    "ListBodyCampaignViewDataItemData",
    "ListBodyCampaignViewDataItemMetadata",
    "ListBodyCampaignViewDataItemSkipped",
    "ListBodyContactView",
    "ListBodyContactViewDataItem",
    "ListBodyContactViewDataItemAttributes",
    "ListBodyDeliveryView",
    "ListBodyDeliveryViewDataItem",
    "ListBodyDeliveryViewDataItemPayload",
    "ListBodyKeyItem",
    "ListBodyKeyItemDataItem",
    "ListBodyMessageView",
    "ListBodyMessageViewDataItem",
    "ListBodyMessageViewDataItemMetadata",
    "ListBodyOptOutView",
    "ListBodyOptOutViewDataItem",
    "ListBodyTemplateView",
    "ListBodyTemplateViewDataItem",
    "ListBodyTenantView",
    "ListBodyTenantViewDataItem",
    "ListBodyWebhookItem",
    "ListBodyWebhookItemDataItem",
    "MediaItemType1",
    "MediaUploaded",
    "MediaView",
    "MessageView",
    "MessageViewMetadata",
    "NewTenantKeys",
    "NodeView",
    "OperatorPhone",
    "OptOutRemoved",
    "OptOutView",
    "PatchContact",
    "PatchContactAttributesType0",
    "PatchPhone",
    "PatchSettings",
    "PatchTemplate",
    "PatchTenantBody",
    "PatchWebhook",
    "QuietHoursBody",
    "QuietHoursPatchBody",
    "RecoverBody",
    "Recovering",
    "ReleaseBody",
    "Released",
    "ReportedStatus",
    "RequestedChannel",
    "RescueKey",
    "Revoked",
    "SecretRotated",
    "SendBody",
    "SendBodyDataType0",
    "SendBodyMetadataType0",
    "SettingsView",
    "SimBody",
    "Status",
    "StatusBody",
    "TemplateView",
    "TenantCreated",
    "TenantPhone",
    "TenantView",
    "TestSent",
    "UsageView",
    "UsedChannel",
    "WebhookCreated",
    "WebhookItem",
)
