/*
Copyright The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package v1beta2

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	resourcev1 "k8s.io/api/resource/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	configv1alpha1 "k8s.io/component-base/config/v1alpha1"
)

// +k8s:defaulter-gen=true
// The deepcopy-gen marker is required to generate API reference documentation by genref.
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:object:root=true

// Configuration is the Schema for the kueueconfigurations API
type Configuration struct {
	metav1.TypeMeta `json:",inline"`

	// Namespace is the namespace in which kueue is deployed. It is used as part of DNSName of the webhook Service.
	// If not set, the value is set from the file /var/run/secrets/kubernetes.io/serviceaccount/namespace
	// If the file doesn't exist, default value is kueue-system.
	Namespace *string `json:"namespace,omitempty"`

	// ControllerManager returns the configurations for controllers
	ControllerManager `json:",inline"`

	// ManageJobsWithoutQueueName controls whether or not Kueue reconciles
	// jobs that don't set the label kueue.x-k8s.io/queue-name.
	// If set to true, then those jobs will be suspended and never started unless
	// they are assigned a queue and eventually admitted. This also applies to
	// jobs created before starting the kueue controller.
	// Defaults to false; therefore, those jobs are not managed and if they are created
	// unsuspended, they will start immediately.
	ManageJobsWithoutQueueName bool `json:"manageJobsWithoutQueueName"`

	// ManagedJobsNamespaceSelector provides a namespace-based mechanism to exempt jobs
	// from management by Kueue.
	//
	// It provides a strong exemption for the Pod-based integrations (pod, deployment, statefulset, etc.),
	// For Pod-based integrations, only jobs whose namespaces match ManagedJobsNamespaceSelector are
	// eligible to be managed by Kueue.  Pods, deployments, etc. in non-matching namespaces will
	// never be managed by Kueue, even if they have a kueue.x-k8s.io/queue-name label.
	// This strong exemption ensures that Kueue will not interfere with the basic operation
	// of system namespace.
	//
	// For all other integrations, ManagedJobsNamespaceSelector provides a weaker exemption
	// by only modulating the effects of ManageJobsWithoutQueueName.  For these integrations,
	// a job that has a kueue.x-k8s.io/queue-name label will always be managed by Kueue. Jobs without
	// a kueue.x-k8s.io/queue-name label will be managed by Kueue only when ManageJobsWithoutQueueName is
	// true and the job's namespace matches ManagedJobsNamespaceSelector.
	ManagedJobsNamespaceSelector *metav1.LabelSelector `json:"managedJobsNamespaceSelector,omitempty"`

	// InternalCertManagement is configuration for internalCertManagement
	InternalCertManagement *InternalCertManagement `json:"internalCertManagement,omitempty"`

	// WaitForPodsReady is configuration to provide a time-based all-or-nothing
	// scheduling semantics for Jobs, by ensuring all pods are ready (running
	// and passing the readiness probe) within the specified time. If the timeout
	// is exceeded, then the workload is evicted.
	WaitForPodsReady *WaitForPodsReady `json:"waitForPodsReady,omitempty"`

	// ClientConnection provides additional configuration options for Kubernetes
	// API server client.
	ClientConnection *ClientConnection `json:"clientConnection,omitempty"`

	// Integrations provide configuration options for AI/ML/Batch frameworks
	// integrations (including K8S job).
	Integrations *Integrations `json:"integrations,omitempty"`

	// MultiKueue controls the behaviour of the MultiKueue AdmissionCheck Controller.
	MultiKueue *MultiKueue `json:"multiKueue,omitempty"`

	// FairSharing controls the Fair Sharing semantics across the cluster.
	FairSharing *FairSharing `json:"fairSharing,omitempty"`

	// admissionFairSharing indicates configuration of FairSharing with the `AdmissionTime` mode on
	AdmissionFairSharing *AdmissionFairSharing `json:"admissionFairSharing,omitempty"`

	// Resources provides additional configuration options for handling the resources.
	Resources *Resources `json:"resources,omitempty"`

	// FeatureGates is a map of feature names to bools that allows to override the
	// default enablement status of a feature. The map cannot be used in conjunction
	// with passing the list of features via the command line argument "--feature-gates"
	// for the Kueue Deployment.
	FeatureGates map[string]bool `json:"featureGates,omitempty"`

	// ObjectRetentionPolicies provides configuration options for automatic deletion
	// of Kueue-managed objects. A nil value disables all automatic deletions.
	// +optional
	ObjectRetentionPolicies *ObjectRetentionPolicies `json:"objectRetentionPolicies,omitempty"`

	// VisibilityServer configures the visibility server.
	// +optional
	VisibilityServer *VisibilityServerConfiguration `json:"visibilityServer,omitempty"`
}

type ControllerManager struct {
	// Webhook contains the controllers webhook configuration
	// +optional
	Webhook ControllerWebhook `json:"webhook,omitempty"`

	// LeaderElection is the LeaderElection config to be used when configuring
	// the manager.Manager leader election
	// +optional
	LeaderElection *configv1alpha1.LeaderElectionConfiguration `json:"leaderElection,omitempty"`

	// Metrics contains the controller metrics configuration
	// +optional
	Metrics ControllerMetrics `json:"metrics,omitempty"`

	// Health contains the controller health configuration
	// +optional
	Health ControllerHealth `json:"health,omitempty"`

	// PprofBindAddress is the TCP address that the controller should bind to
	// for serving pprof.
	// It can be set to "" or "0" to disable the pprof serving.
	// Since pprof may contain sensitive information, make sure to protect it
	// before exposing it to public.
	// +optional
	PprofBindAddress string `json:"pprofBindAddress,omitempty"`

	// Controller contains global configuration options for controllers
	// registered within this manager.
	// +optional
	Controller *ControllerConfigurationSpec `json:"controller,omitempty"`

	// TLS contains TLS security settings for all Kueue API servers
	// (webhooks, metrics, and visibility).
	// +optional
	TLS *TLSOptions `json:"tls,omitempty"`
}

// ControllerWebhook defines the webhook server for the controller.
type ControllerWebhook struct {
	// Port is the port that the webhook server serves at.
	// It is used to set webhook.Server.Port.
	// +optional
	Port *int `json:"port,omitempty"`

	// Host is the hostname that the webhook server binds to.
	// It is used to set webhook.Server.Host.
	// +optional
	Host string `json:"host,omitempty"`

	// CertDir is the directory that contains the server key and certificate.
	// if not set, webhook server would look up the server key and certificate in
	// {TempDir}/k8s-webhook-server/serving-certs. The server key and certificate
	// must be named tls.key and tls.crt, respectively.
	// +optional
	CertDir string `json:"certDir,omitempty"`
}

// ControllerMetrics defines the metrics configs.
type ControllerMetrics struct {
	// BindAddress is the TCP address that the controller should bind to
	// for serving prometheus metrics.
	// It can be set to "0" to disable the metrics serving.
	// +optional
	BindAddress string `json:"bindAddress,omitempty"`

	// EnableClusterQueueResources, if true the cluster queue resource usage and quotas
	// metrics will be reported.
	// +optional
	EnableClusterQueueResources bool `json:"enableClusterQueueResources,omitempty"`

	// CustomLabels is a list of entries whose values will be added as extra
	// Prometheus labels on supported metrics.
	// A maximum of 6 labels are allowed per SourceKind (2 for Workloads), with up to 20 labels defined in total.
	// +optional
	CustomLabels []ControllerMetricsCustomLabel `json:"customLabels,omitempty"`

	// LocalQueueMetrics is a configuration that provides LocalQueue metrics options.
	// +optional
	LocalQueueMetrics *LocalQueueMetrics `json:"localQueueMetrics,omitempty"`
}

type SourceKind string

const (
	SourceKindCohort       SourceKind = "Cohort"
	SourceKindLocalQueue   SourceKind = "LocalQueue"
	SourceKindClusterQueue SourceKind = "ClusterQueue"
	SourceKindWorkload     SourceKind = "Workload"
)

const UntrackedCustomLabelValue = "kueue.x-k8s.io/_UNTRACKED_VALUE_"

// ControllerMetricsCustomLabel defines a Kubernetes label or annotation to promote
// as a Prometheus metric label with a "custom_" prefix.
type ControllerMetricsCustomLabel struct {
	// Name is the Prometheus metric label name suffix.
	// Prepended with "custom_" to form the full Prometheus label name
	// (e.g., "team" becomes "custom_team").
	// Must contain only [a-zA-Z0-9_] characters and start with a letter.
	Name string `json:"name"`

	// SourceLabelKey is the Kubernetes label key to read the value from.
	// Must be a valid Kubernetes qualified name.
	// Mutually exclusive with SourceAnnotationKey.
	// If neither is specified, defaults to Name.
	// +optional
	SourceLabelKey string `json:"sourceLabelKey,omitempty"`

	// SourceAnnotationKey is the Kubernetes annotation key to read the value from.
	// Must be a valid Kubernetes qualified name.
	// Mutually exclusive with SourceLabelKey.
	// +optional
	SourceAnnotationKey string `json:"sourceAnnotationKey,omitempty"`

	// SourceKind is the object kind from which the label value should be sourced.
	// Up to 2 labels are allowed for Workloads and up to 6 for other source kinds.
	// Defaults to ClusterQueue.
	// The possible values are:
	// - Cohort
	// - LocalQueue
	// - ClusterQueue
	// - Workload
	// +optional
	SourceKind *SourceKind `json:"sourceKind,omitempty"`

	// TrackedValues is a list of the label's allowed values.
	// When SourceKind is Workload, a closed list of 1-12 TrackedValues is required.
	// Non-workload source kinds can have 0-16 TrackedValues. If the list is empty, any value is allowed.
	// Label values not allowed by this field will be reported as "kueue.x-k8s.io/_UNTRACKED_VALUE_".
	// +optional
	TrackedValues []string `json:"trackedValues,omitempty"`
}

// LocalQueueMetrics defines the configuration options for local queue metrics.
// If left empty, then metrics will expose for all local queues across namespaces.
type LocalQueueMetrics struct {
	// Enable is a knob to allow metrics to be exposed for local queues. Defaults to true.
	// +optional
	Enable bool `json:"enable,omitempty"`

	// LocalQueueSelector can be used to choose the local queues that need metrics to be collected.
	// +optional
	LocalQueueSelector *metav1.LabelSelector `json:"localQueueSelector,omitempty"`
}

// ControllerHealth defines the health configs.
type ControllerHealth struct {
	// HealthProbeBindAddress is the TCP address that the controller should bind to
	// for serving health probes
	// It can be set to "0" or "" to disable serving the health probe.
	// +optional
	HealthProbeBindAddress string `json:"healthProbeBindAddress,omitempty"`

	// ReadinessEndpointName, defaults to "readyz"
	// +optional
	ReadinessEndpointName string `json:"readinessEndpointName,omitempty"`

	// LivenessEndpointName, defaults to "healthz"
	// +optional
	LivenessEndpointName string `json:"livenessEndpointName,omitempty"`
}

// ControllerConfigurationSpec defines the global configuration for
// controllers registered with the manager.
type ControllerConfigurationSpec struct {
	// GroupKindConcurrency is a map from a Kind to the number of concurrent reconciliation
	// allowed for that controller.
	//
	// When a controller is registered within this manager using the builder utilities,
	// users have to specify the type the controller reconciles in the For(...) call.
	// If the object's kind passed matches one of the keys in this map, the concurrency
	// for that controller is set to the number specified.
	//
	// The key is expected to be consistent in form with GroupKind.String(),
	// e.g. ReplicaSet in apps group (regardless of version) would be `ReplicaSet.apps`.
	//
	// +optional
	GroupKindConcurrency map[string]int `json:"groupKindConcurrency,omitempty"`

	// CacheSyncTimeout refers to the time limit set to wait for syncing caches.
	// Defaults to 2 minutes if not set.
	// +optional
	CacheSyncTimeout *time.Duration `json:"cacheSyncTimeout,omitempty"`
}

// WaitForPodsReady defines configuration for the Wait For Pods Ready feature,
// which is used to ensure that all Pods are ready within the specified time.
type WaitForPodsReady struct {
	// Timeout defines the time for an admitted workload to reach the
	// PodsReady=true condition. When the timeout is exceeded, the workload
	// evicted and requeued in the same cluster queue.
	Timeout metav1.Duration `json:"timeout"`

	// BlockAdmission when true, the cluster queue will block admissions for all
	// subsequent jobs until the jobs reach the PodsReady=true condition.
	// Defaults to false.
	// +optional
	BlockAdmission *bool `json:"blockAdmission,omitempty"`

	// RequeuingStrategy defines the strategy for requeuing a Workload.
	// +optional
	RequeuingStrategy *RequeuingStrategy `json:"requeuingStrategy,omitempty"`

	// RecoveryTimeout defines a timeout, measured since the
	// last transition to the PodsReady=false condition after a Workload is Admitted and running.
	// Such a transition may happen when a Pod failed and the replacement Pod
	// is awaited to be scheduled.
	// After exceeding the timeout the corresponding job gets suspended again
	// and requeued after the backoff delay.
	// Defaults to the value of timeout. Setting to "0s" disables recovery timeout checking.
	// +optional
	RecoveryTimeout *metav1.Duration `json:"recoveryTimeout,omitempty"`
}

type MultiKueue struct {
	// GCInterval defines the time interval between two consecutive garbage collection runs.
	// Defaults to 1min. If 0, the garbage collection is disabled.
	// +optional
	GCInterval *metav1.Duration `json:"gcInterval"`

	// Origin defines a label value used to track the creator of workloads in the worker
	// clusters.
	// This is used by multikueue in components like its garbage collector to identify
	// remote objects that ware created by this multikueue manager cluster and delete
	// them if their local counterpart no longer exists.
	// +optional
	Origin *string `json:"origin,omitempty"`

	// WorkerLostTimeout defines the time a local workload's multikueue admission check state is kept Ready
	// if the connection with its reserving worker cluster is lost.
	//
	// Defaults to 15 minutes.
	// +optional
	WorkerLostTimeout *metav1.Duration `json:"workerLostTimeout,omitempty"`

	// DispatcherName defines the dispatcher responsible for selecting worker clusters to handle the workload.
	// - If specified, the workload will be handled by the named dispatcher.
	// - If not specified, the workload will be handled by the default ("kueue.x-k8s.io/multikueue-dispatcher-all-at-once") dispatcher.
	// +optional
	DispatcherName *string `json:"dispatcherName,omitempty"`

	// ExternalFrameworks defines a list of external frameworks that should be supported
	// by the generic MultiKueue adapter. Each entry defines how to handle a specific
	// GroupVersionKind (GVK) for MultiKueue operations.
	// +optional
	ExternalFrameworks []MultiKueueExternalFramework `json:"externalFrameworks,omitempty"`

	// ClusterProfile defines configuration for using the ClusterProfile API.
	// +optional
	ClusterProfile *ClusterProfile `json:"clusterProfile,omitempty"`

	// IncrementalDispatcherConfig contains the configuration for the incremental dispatcher.
	// This field is only valid when DispatcherName is set to the incremental dispatcher.
	// Note: This field is going to be ignored when the MultiKueueIncrementalDispatcherConfig feature gate is disabled.
	// +optional
	IncrementalDispatcherConfig *IncrementalDispatcherConfig `json:"incrementalDispatcherConfig,omitempty"`
}

// IncrementalDispatcherConfig holds configuration for the MultiKueue Incremental Dispatcher.
type IncrementalDispatcherConfig struct {
	// StepSize defines the number of worker clusters the Incremental Dispatcher
	// will query simultaneously.
	// Minimum value is 1. If not set, it defaults to 3.
	// +optional
	StepSize *int32 `json:"stepSize,omitempty"`
}

// MultiKueueExternalFramework defines a framework that is not built-in.
type MultiKueueExternalFramework struct {
	// Name is the GVK of the resource that are
	// managed by external controllers
	// the expected format is `kind.version.group`.
	Name string `json:"name"`
}

const (
	// MultiKueueDispatcherModeAllAtOnce is the name of dispatcher mode where all worker clusters are considered at once
	// and the first one accepting the workload is selected.
	MultiKueueDispatcherModeAllAtOnce = "kueue.x-k8s.io/multikueue-dispatcher-all-at-once"

	// MultiKueueDispatcherModeIncremental is the name of dispatcher mode where worker clusters are incrementally added to the pool of nominated clusters.
	// The process begins with up to 3 initial clusters and expands the pool by up to 3 clusters at a time (if fewer remain, all are added).
	MultiKueueDispatcherModeIncremental = "kueue.x-k8s.io/multikueue-dispatcher-incremental"
)

type RequeuingStrategy struct {
	// Timestamp defines the timestamp used for re-queuing a Workload
	// that was evicted due to Pod readiness. The possible values are:
	//
	// - `Eviction` (default) indicates from Workload `Evicted` condition with `PodsReadyTimeout` reason.
	// - `Creation` indicates from Workload .metadata.creationTimestamp.
	//
	// +optional
	Timestamp *RequeuingTimestamp `json:"timestamp,omitempty"`

	// BackoffLimitCount defines the maximum number of re-queuing retries.
	// Once the number is reached, the workload is deactivated (`.spec.activate`=`false`).
	// When it is null, the workloads will repeatedly and endless re-queueing.
	//
	// Every backoff duration is about "b*2^(n-1)+Rand" where:
	// - "b" represents the base set by "BackoffBaseSeconds" parameter,
	// - "n" represents the "workloadStatus.requeueState.count",
	// - "Rand" represents the random jitter.
	// During this time, the workload is taken as an inadmissible and
	// other workloads will have a chance to be admitted.
	// By default, the consecutive requeue delays are around: (60s, 120s, 240s, ...).
	//
	// Defaults to null.
	// +optional
	BackoffLimitCount *int32 `json:"backoffLimitCount,omitempty"`

	// BackoffBaseSeconds defines the base for the exponential backoff for
	// re-queuing an evicted workload.
	//
	// Defaults to 60.
	// +optional
	BackoffBaseSeconds *int32 `json:"backoffBaseSeconds,omitempty"`

	// BackoffMaxSeconds defines the maximum backoff time to re-queue an evicted workload.
	//
	// Defaults to 3600.
	// +optional
	BackoffMaxSeconds *int32 `json:"backoffMaxSeconds,omitempty"`
}

type RequeuingTimestamp string

const (
	// CreationTimestamp timestamp (from Workload .metadata.creationTimestamp).
	CreationTimestamp RequeuingTimestamp = "Creation"

	// EvictionTimestamp timestamp (from Workload .status.conditions).
	EvictionTimestamp RequeuingTimestamp = "Eviction"
)

type InternalCertManagement struct {
	// Enable controls the use of internal cert management for the webhook,
	// metrics and visibility endpoints.
	// When enabled Kueue is using libraries to generate and
	// self-sign the certificates.
	// When disabled, you need to provide the certificates for
	// the webhooks, metrics and visibility through a third party certificate
	// This secret is mounted to the kueue controller manager pod. The mount
	// path for webhooks is /tmp/k8s-webhook-server/serving-certs, for
	// metrics endpoint the expected path is `/etc/kueue/metrics/certs` and for
	// visibility endpoint the expected path is `/visibility`.
	// The keys and certs are named tls.key and tls.crt.
	Enable *bool `json:"enable,omitempty"`

	// WebhookServiceName is the name of the Service used as part of the DNSName.
	// Defaults to kueue-webhook-service.
	WebhookServiceName *string `json:"webhookServiceName,omitempty"`

	// WebhookSecretName is the name of the Secret used to store CA and server certs.
	// Defaults to kueue-webhook-server-cert.
	WebhookSecretName *string `json:"webhookSecretName,omitempty"`
}

// TLSOptions defines TLS security settings for Kueue servers
type TLSOptions struct {
	// minVersion is the minimum TLS version supported.
	// Values are from tls package constants (https://golang.org/pkg/crypto/tls/#pkg-constants).
	// This field is only valid when TLSOptions is set to true.
	// The default would be to not set this value and inherit golang settings.
	// +optional
	MinVersion string `json:"minVersion,omitempty"`

	// cipherSuites is the list of allowed cipher suites for the server.
	// Note that TLS 1.3 ciphersuites are not configurable.
	// Values are from tls package constants (https://golang.org/pkg/crypto/tls/#pkg-constants).
	// The default would be to not set this value and inherit golang settings.
	// +optional
	CipherSuites []string `json:"cipherSuites,omitempty"`

	// curvePreferences is the list of allowed TLS key exchange mechanisms (curves)
	// for the server, specified as numeric IANA TLS Supported Group IDs.
	// See https://pkg.go.dev/crypto/tls#CurveID for values supported by the current Go version.
	// If omitted, Go defaults are used.
	// +optional
	CurvePreferences []int32 `json:"curvePreferences,omitempty"`
}

// ClusterProfile defines configuration for using the ClusterProfile API in MultiKueue.
type ClusterProfile struct {
	// AccessProviders defines a list of providers to obtain access to worker clusters
	// using the ClusterProfile API.
	// +optional
	AccessProviders []ClusterProfileAccessProvider `json:"accessProviders,omitempty"`

	// CredentialsProviders defines a list of providers to obtain credentials of worker clusters
	// using the ClusterProfile API.
	//
	// Deprecated: Use AccessProviders instead. AccessProviders and CredentialsProviders
	// are mutually exclusive.
	//
	// +optional
	// +deprecated
	CredentialsProviders []ClusterProfileCredentialsProvider `json:"credentialsProviders,omitempty"`
}

// ClusterProfileAccessProvider defines an access provider in the ClusterProfile API.
type ClusterProfileAccessProvider struct {
	// Name is the name of the provider.
	Name string `json:"name"`
	// ExecConfig is the exec configuration to obtain credentials.
	ExecConfig clientcmdapi.ExecConfig `json:"execConfig"`
}

type ClientConnection struct {
	// QPS controls the number of queries per second allowed for K8S api server
	// connection.
	//
	// Setting this to a negative value will disable client-side ratelimiting.
	QPS *float32 `json:"qps,omitempty"`

	// Burst allows extra queries to accumulate when a client is exceeding its rate.
	Burst *int32 `json:"burst,omitempty"`
}

type Integrations struct {
	// List of framework names to be enabled.
	// Possible options:
	//  - "batch/job"
	//  - "kubeflow.org/mpijob"
	//  - "ray.io/rayjob"
	//  - "ray.io/rayservice"
	//  - "ray.io/raycluster"
	//  - "jobset.x-k8s.io/jobset"
	//  - "kubeflow.org/paddlejob"
	//  - "kubeflow.org/pytorchjob"
	//  - "kubeflow.org/tfjob"
	//  - "kubeflow.org/xgboostjob"
	//  - "kubeflow.org/jaxjob"
	//  - "trainer.kubeflow.org/trainjob"
	//  - "workload.codeflare.dev/appwrapper"
	//  - "sparkoperator.k8s.io/sparkapplication"
	//  - "pod"
	//  - "deployment"
	//  - "statefulset"
	//  - "leaderworkerset.x-k8s.io/leaderworkerset"
	Frameworks []string `json:"frameworks,omitempty"`
	// List of GroupVersionKinds that are managed for Kueue by external controllers;
	// the expected format is `Kind.version.group.com`.
	ExternalFrameworks []string `json:"externalFrameworks,omitempty"`

	// labelKeysToCopy is a list of label keys that should be copied from the job into the
	// workload object. It is not required for the job to have all the labels from this
	// list. If a job does not have some label with the given key from this list, the
	// constructed workload object will be created without this label. In the case
	// of creating a workload from a composable job (pod group), if multiple objects
	// have labels with some key from the list, the values of these labels must
	// match or otherwise the workload creation would fail. The labels are copied only
	// during the workload creation and are not updated even if the labels of the
	// underlying job are changed.
	LabelKeysToCopy []string `json:"labelKeysToCopy,omitempty"`
}

// QuotaCheckStrategy determines how Kueue checks resources against quota
// during admission.
type QuotaCheckStrategy string

const (
	// QuotaCheckBlockUndeclared means all resources defined in the workload are checked against quota,
	// except those matching ExcludeResourcePrefixes.
	QuotaCheckBlockUndeclared QuotaCheckStrategy = "BlockUndeclared"

	// QuotaCheckIgnoreUndeclared means only resources defined in the workload that are declared in the
	// ClusterQueue's coveredResources are checked against quota. Resources undeclared in the clusterQueue
	// are ignored. ExcludeResourcePrefixes is not allowed in combination with this strategy.
	QuotaCheckIgnoreUndeclared QuotaCheckStrategy = "IgnoreUndeclared"
)

type Resources struct {
	// QuotaCheckStrategy determines which resources are considered during quota admission.
	// +optional
	QuotaCheckStrategy *QuotaCheckStrategy `json:"quotaCheckStrategy,omitempty"`

	// ExcludedResourcePrefixes defines which resources should be ignored by Kueue
	ExcludeResourcePrefixes []string `json:"excludeResourcePrefixes,omitempty"`

	// Transformations defines how to transform PodSpec resources into Workload resource requests.
	// This is intended to be a map with Input as the key (enforced by validation code)
	Transformations []ResourceTransformation `json:"transformations,omitempty"`

	// DeviceClassMappings defines mappings from device classes to logical resources
	// for Dynamic Resource Allocation support.
	// +optional
	DeviceClassMappings []DeviceClassMapping `json:"deviceClassMappings,omitempty"`
}

type ResourceTransformationStrategy string

const Retain ResourceTransformationStrategy = "Retain"
const Replace ResourceTransformationStrategy = "Replace"

type ResourceTransformation struct {
	// Input is the name of the input resource.
	Input corev1.ResourceName `json:"input"`

	// Strategy specifies if the input resource should be replaced or retained.
	// Defaults to Retain
	Strategy *ResourceTransformationStrategy `json:"strategy,omitempty"`

	// MultiplyBy indicates the resource name requested by a workload, if
	// specified.
	// The requested amount of the resource is used to multiply the requested
	// amount of the resource indicated by the "input" field when computing
	// "outputs". It does not change the quantity retained under "input" when
	// "strategy" is Retain.
	// +optional
	MultiplyBy corev1.ResourceName `json:"multiplyBy,omitempty"`

	// Outputs specifies the output resources and quantities per unit of input resource.
	// An empty Outputs combined with a `Replace` Strategy causes the Input resource to be ignored by Kueue.
	Outputs corev1.ResourceList `json:"outputs,omitempty"`
}

// DeviceClassMapping holds device class to logical resource mappings
// for Dynamic Resource Allocation support.
type DeviceClassMapping struct {
	// Name is referenced in ClusterQueue.nominalQuota and Workload status.
	// Must be a valid fully qualified name consisting of an optional DNS subdomain prefix
	// followed by a slash and a DNS label, or just a DNS label.
	// DNS labels consist of lower-case alphanumeric characters or hyphens,
	// and must start and end with an alphanumeric character.
	// DNS subdomain prefixes follow the same rules as DNS labels but can contain periods.
	// The total length must not exceed 253 characters.
	Name corev1.ResourceName `json:"name"`

	// DeviceClassNames enumerates the DeviceClasses represented by this resource name.
	// Each device class name must be a valid qualified name consisting of an optional DNS subdomain prefix
	// followed by a slash and a DNS label, or just a DNS label.
	// DNS labels consist of lower-case alphanumeric characters or hyphens,
	// and must start and end with an alphanumeric character.
	// DNS subdomain prefixes follow the same rules as DNS labels but can contain periods.
	// The total length of each name must not exceed 253 characters.
	DeviceClassNames []corev1.ResourceName `json:"deviceClassNames"`

	// Sources configures resource accounting sources for this mapping.
	// Each source defines how quota is tracked for this DeviceClass.
	// Extended resource requests that resolve to a DeviceClass with sources
	// configured are marked inadmissible.
	// Counter sources require KueueDRAIntegrationPartitionableDevices (enabled by default since v0.19).
	// Capacity sources require KueueDRAIntegrationConsumableCapacity.
	// +optional
	Sources []DeviceClassSourceConfig `json:"sources,omitempty"`
}

// DeviceClassSourceConfig defines a resource accounting source for a DeviceClassMapping.
// Exactly one of the source types must be set per entry.
type DeviceClassSourceConfig struct {
	// Counter configures counter-based quota for partitionable devices.
	// Maps a DRA driver counter to the parent DeviceClassMapping's Kueue quota resource.
	// +optional
	Counter *DeviceClassCounterSource `json:"counter,omitempty"`

	// Capacity configures capacity-based quota for devices that allow
	// multiple allocations (consumable capacity, KEP-5075).
	// Maps a device capacity dimension to the parent DeviceClassMapping's Kueue quota resource.
	// Requires the KueueDRAIntegrationConsumableCapacity feature gate.
	// +optional
	Capacity *DeviceClassCapacitySource `json:"capacity,omitempty"`
}

// DeviceClassCounterSource identifies where to read counter data from and which counter to track.
type DeviceClassCounterSource struct {
	// Name is the counter name within the device's consumesCounters
	// entries to track for quota. Must be a DNS label and match a counter
	// name published by the driver in ResourceSlice devices' consumesCounters field.
	// Counter set names are per-device identifiers (e.g., gpu-0-counter-set,
	// gpu-1-counter-set), so name matches across all counter sets
	// for a given driver without requiring one mapping per device.
	// The total length must not exceed 63 characters.
	// +required
	Name string `json:"name"`

	// Driver is the DRA driver name used to filter relevant ResourceSlices.
	// Must be a lowercase DNS subdomain and match the spec.driver field on ResourceSlice objects.
	// The total length must not exceed 63 characters.
	// +required
	Driver string `json:"driver"`

	// DeviceSelector scopes which devices are eligible for counter-based
	// quota accounting. Typically matches a GPU model (e.g., productName)
	// so all partition profiles on that model share one quota pool.
	// Per-workload charging is determined by the workload's own
	// ResourceClaimTemplate selector, which narrows to the requested profile.
	// The selector is compiled at config load time using the upstream dracel
	// compiler.
	// +required
	DeviceSelector resourcev1.DeviceSelector `json:"deviceSelector"`
}

// DeviceClassCapacitySource configures capacity-based quota tracking
// for devices that allow multiple allocations (KEP-5075).
type DeviceClassCapacitySource struct {
	// Name identifies the capacity dimension to track for quota
	// (e.g., "gpu.example.com/memory").
	// Must be a valid DRA QualifiedName.
	// +required
	Name resourcev1.QualifiedName `json:"name"`

	// Driver is the DRA driver name used to filter relevant ResourceSlices.
	// Must match the spec.driver field on ResourceSlice objects.
	// Must not exceed 63 characters.
	// +required
	Driver string `json:"driver"`

	// DeviceSelector scopes which devices are eligible for quota accounting.
	// Matches devices whose capacity dimensions should be tracked against
	// the quota pool.
	// The selector is compiled at config load time using the upstream dracel
	// compiler.
	// +required
	DeviceSelector resourcev1.DeviceSelector `json:"deviceSelector"`
}

type PreemptionStrategy string

const (
	LessThanOrEqualToFinalShare PreemptionStrategy = "LessThanOrEqualToFinalShare"
	LessThanInitialShare        PreemptionStrategy = "LessThanInitialShare"
)

type FairSharing struct {
	// preemptionStrategies indicates which constraints should a preemption satisfy.
	// The preemption algorithm will only use the next strategy in the list if the
	// incoming workload (preemptor) doesn't fit after using the previous strategies.
	// Possible values are:
	// - LessThanOrEqualToFinalShare: Only preempt a workload if the share of the preemptor CQ
	//   with the preemptor workload is less than or equal to the share of the preemptee CQ
	//   without the workload to be preempted.
	//   This strategy might favor preemption of smaller workloads in the preemptee CQ,
	//   regardless of priority or start time, in an effort to keep the share of the CQ
	//   as high as possible.
	// - LessThanInitialShare: Only preempt a workload if the share of the preemptor CQ
	//   with the incoming workload is strictly less than the share of the preemptee CQ.
	//   This strategy doesn't depend on the share usage of the workload being preempted.
	//   As a result, the strategy chooses to preempt workloads with the lowest priority and
	//   newest start time first.
	PreemptionStrategies []PreemptionStrategy `json:"preemptionStrategies"`
}

type AdmissionFairSharing struct {
	// usageHalfLifeTime indicates the time after which the current usage will decay by a half
	// If set to 0, usage will be reset to 0 immediately.
	UsageHalfLifeTime metav1.Duration `json:"usageHalfLifeTime"`

	// usageSamplingInterval indicates how often Kueue updates consumedResources in FairSharingStatus
	// Defaults to 5min.
	UsageSamplingInterval metav1.Duration `json:"usageSamplingInterval"`

	// resourceWeights assigns weights to resources which then are used to calculate LocalQueue's
	// resource usage and order Workloads.
	// Defaults to 1.
	ResourceWeights map[corev1.ResourceName]float64 `json:"resourceWeights,omitempty"`
}

// ObjectRetentionPolicies holds retention settings for different object types.
type ObjectRetentionPolicies struct {
	// Workloads configures retention for Workloads.
	// A nil value disables automatic deletion of Workloads.
	// +optional
	Workloads *WorkloadRetentionPolicy `json:"workloads,omitempty"`
}

// WorkloadRetentionPolicy defines the policies for when Workloads should be deleted.
type WorkloadRetentionPolicy struct {
	// AfterFinished is the duration to wait after a Workload finishes
	// before deleting it.
	// A duration of 0 will delete immediately.
	// A nil value disables automatic deletion.
	// Represented using metav1.Duration (e.g. "10m", "1h30m").
	// +optional
	AfterFinished *metav1.Duration `json:"afterFinished,omitempty"`

	// AfterDeactivatedByKueue is the duration to wait after *any* Kueue-managed Workload
	// (such as a Job, JobSet, or other custom workload types) has been marked
	// as deactivated by Kueue before automatically deleting it.
	// Deletion of deactivated workloads may cascade to objects not created by
	// Kueue, since deleting the parent Workload owner (e.g. JobSet) can trigger
	// garbage-collection of dependent resources.
	// A duration of 0 will delete immediately.
	// A nil value disables automatic deletion.
	// Represented using metav1.Duration (e.g. "10m", "1h30m").
	// +optional
	AfterDeactivatedByKueue *metav1.Duration `json:"afterDeactivatedByKueue,omitempty"`
}

type VisibilityServerConfiguration struct {
	// BindAddress is the IP address the visibility server listens on.
	// Defaults to 0.0.0.0 (all network interfaces).
	// +optional
	BindAddress *string `json:"bindAddress,omitempty"`

	// BindPort is the port the visibility server listens on.
	// Defaults to 8082.
	// +optional
	BindPort *int32 `json:"bindPort,omitempty"`
}
