// Package provider adapts the sapmessaging domain packages to the Terraform plugin framework.
package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/provider/framework"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/action"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/cpi"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/eventmesh"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/httpx"
	"github.com/sapmessaging/terraform-provider-sapmessaging/internal/servicekey"
)

// messagingNeededBy says what needs the messaging REST credentials of an Event Mesh service key.
const messagingNeededBy = "The messaging REST API (the service key's `messaging` entry of protocol `httprest`) is what " +
	"`sapmessaging_webhook_subscription` manages webhook subscriptions through, what the action `sapmessaging_redrive` moves " +
	"messages with, and what `sapmessaging_retry_audit` lists the webhook subscriptions by; the queues need only the management API."

var (
	_ provider.Provider                  = (*sapMessagingProvider)(nil)
	_ provider.ProviderWithFunctions     = (*sapMessagingProvider)(nil)
	_ provider.ProviderWithListResources = (*sapMessagingProvider)(nil)
	_ provider.ProviderWithActions       = (*sapMessagingProvider)(nil)
)

// HTTPClientFunc creates one HTTP client of the provider from its configuration.
type HTTPClientFunc func(httpx.Config) (*httpx.Client, error)

// sapMessagingProvider is the sapmessaging provider.
type sapMessagingProvider struct {
	version string
	// newHTTPClient creates the HTTP clients of Configure.
	newHTTPClient HTTPClientFunc
}

// New returns a constructor of the provider at the given version.
func New(version string) func() provider.Provider {
	return NewWithHTTPClient(version, httpx.New)
}

// NewWithHTTPClient returns a constructor of the provider whose HTTP clients
// newHTTPClient creates, so that a test can tune and watch them.
func NewWithHTTPClient(version string, newHTTPClient HTTPClientFunc) func() provider.Provider {
	return func() provider.Provider {
		// As early as the process starts, so that this process joins the walk of its Terraform
		// process while the other provider configurations' processes still run (owners.go).
		framework.JoinWalk(context.Background())
		return &sapMessagingProvider{version: version, newHTTPClient: newHTTPClient}
	}
}

type providerModel struct {
	EventMesh         types.Object `tfsdk:"event_mesh"`
	CloudIntegration  types.Object `tfsdk:"cloud_integration"`
	AdvancedEventMesh types.Object `tfsdk:"advanced_event_mesh"`
	MaxRetries        types.Int64  `tfsdk:"max_retries"`
	RequestTimeout    types.Int64  `tfsdk:"request_timeout_seconds"`
	TrustedTokenHosts types.List   `tfsdk:"trusted_token_hosts"`
}

type eventMeshModel struct {
	ServiceKey    types.String `tfsdk:"service_key"`
	ManagementURL types.String `tfsdk:"management_url"`
	TokenURL      types.String `tfsdk:"token_url"`
	ClientID      types.String `tfsdk:"client_id"`
	ClientSecret  types.String `tfsdk:"client_secret"`
}

type cloudIntegrationModel struct {
	ServiceKey   types.String `tfsdk:"service_key"`
	URL          types.String `tfsdk:"url"`
	TokenURL     types.String `tfsdk:"token_url"`
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	PrivateKey   types.String `tfsdk:"private_key"`
}

func (p *sapMessagingProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "sapmessaging"
	resp.Version = p.version
}

func (p *sapMessagingProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Manages the retry and dead-letter settings of SAP Event Mesh queues, SAP Cloud Integration " +
			"senders and SAP Integration Suite, advanced event mesh queues, and refuses the dangerous values at plan time.",
		Attributes: map[string]schema.Attribute{
			"event_mesh": schema.SingleNestedAttribute{
				MarkdownDescription: "Connection to SAP Event Mesh: the management API (queues, dead message queues, subscriptions) and, " +
					"from a service key, its messaging REST API. Give `service_key` (the BTP service key JSON, " +
					"verbatim) or the four explicit fields. When left out, the provider reads `" + framework.EnvEventMeshServiceKey +
					"` (JSON text or a path to a JSON file); an empty or blank `service_key` is an error, not a fallback. " +
					messagingNeededBy,
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"service_key": schema.StringAttribute{
						MarkdownDescription: "The Event Mesh service key JSON as BTP hands it out, for example `file(\"event-mesh-key.json\")`. " +
							"Its `management` entry connects the management API; its `messaging` entry of protocol `httprest`, where the key has one, " +
							"the messaging REST API.",
						Optional:  true,
						Sensitive: true,
					},
					"management_url": schema.StringAttribute{
						MarkdownDescription: "The management API URL (`management[0].uri` of the service key). `https` is required except for loopback hosts. " +
							"The explicit fields connect the management API only, not the messaging REST API.",
						Optional: true,
					},
					"token_url": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 token endpoint (`management[0].oa2.tokenendpoint`).",
						Optional:            true,
					},
					"client_id": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 client ID (`management[0].oa2.clientid`).",
						Optional:            true,
					},
					"client_secret": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 client secret (`management[0].oa2.clientsecret`).",
						Optional:            true,
						Sensitive:           true,
					},
				},
			},
			"cloud_integration": schema.SingleNestedAttribute{
				MarkdownDescription: "Connection to the SAP Cloud Integration OData API (Process Integration Runtime, plan `api`). " +
					"Give `service_key` or the four explicit fields. When left out, the provider reads `" + framework.EnvCloudIntegrationServiceKey + "`; " +
					"an empty or blank `service_key` is an error, not a fallback.",
				Optional: true,
				Attributes: map[string]schema.Attribute{
					"service_key": schema.StringAttribute{
						MarkdownDescription: "The Cloud Integration service key JSON (`{\"oauth\": {...}}`).",
						Optional:            true,
						Sensitive:           true,
					},
					"url": schema.StringAttribute{
						MarkdownDescription: "The tenant URL (`oauth.url`). `https` is required except for loopback hosts.",
						Optional:            true,
					},
					"token_url": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 token endpoint (`oauth.tokenurl`).",
						Optional:            true,
					},
					"client_id": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 client ID (`oauth.clientid`).",
						Optional:            true,
					},
					"client_secret": schema.StringAttribute{
						MarkdownDescription: "The OAuth2 client secret (`oauth.clientsecret`).",
						Optional:            true,
						Sensitive:           true,
					},
					"private_key": schema.StringAttribute{
						MarkdownDescription: "The private key of a service key of type *External Certificate*, which holds the certificate " +
							"but not its key: the PEM text or the path of a PEM file. When not set, the provider reads `" +
							framework.EnvCloudIntegrationPrivateKey + "`. Not used with other key types. Never logged or stored in the state.",
						Optional:  true,
						Sensitive: true,
					},
				},
			},
			"advanced_event_mesh": aemConnectionSchema(),
			"max_retries": schema.Int64Attribute{
				CustomType: framework.WholeNumber(0, 20),
				MarkdownDescription: "How often one HTTP request is retried on 429, 5xx and connection errors, including a refused connection " +
					"and a failed name lookup or TLS handshake. Defaults to " + strconv.Itoa(httpx.DefaultMaxRetries) + ".",
				Optional:   true,
				Validators: []validator.Int64{int64validator.Between(0, 20)},
			},
			"request_timeout_seconds": schema.Int64Attribute{
				CustomType:          framework.WholeNumber(1, 600),
				MarkdownDescription: "The timeout of one HTTP attempt, in seconds. Defaults to " + strconv.Itoa(int(httpx.DefaultRequestTimeout/time.Second)) + ".",
				Optional:            true,
				Validators:          []validator.Int64{int64validator.Between(1, 600)},
			},
			"trusted_token_hosts": schema.ListAttribute{
				MarkdownDescription: "Token endpoint hosts, or domains (which cover their subdomains), that may receive the client " +
					"credentials although they share no domain with the API host and are not hosts of SAP BTP " +
					"(`" + strings.Join(httpx.BTPDomains, "`, `") + "`). The provider warns about any other such token host, " +
					"naming it and the API host; listing it here silences the warning. The token endpoint must use `https` " +
					"(loopback hosts excepted) in any case.",
				Optional:    true,
				ElementType: types.StringType,
			},
		},
	}
}

func (p *sapMessagingProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(framework.GetConfig(ctx, req.Config, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}

	// Retries and timeout not set keep the defaults of httpx.
	common := httpx.Config{UserAgent: "terraform-provider-sapmessaging/" + p.version, LogsOff: framework.LogsOff.Load()}
	if !cfg.MaxRetries.IsNull() && !cfg.MaxRetries.IsUnknown() {
		common.SetRetries(int(cfg.MaxRetries.ValueInt64()))
	}
	if !cfg.RequestTimeout.IsNull() && !cfg.RequestTimeout.IsUnknown() {
		common.RequestTimeout = time.Duration(cfg.RequestTimeout.ValueInt64()) * time.Second
	}

	var trusted []string
	if !cfg.TrustedTokenHosts.IsNull() && !cfg.TrustedTokenHosts.IsUnknown() {
		resp.Diagnostics.Append(cfg.TrustedTokenHosts.ElementsAs(ctx, &trusted, false)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}

	data := &framework.ProviderData{}
	data.EventMeshUnknown, data.CloudIntegrationUnknown = framework.HasUnknown(cfg.EventMesh), framework.HasUnknown(cfg.CloudIntegration)
	if cfg.EventMesh.IsUnknown() || cfg.CloudIntegration.IsUnknown() || cfg.AdvancedEventMesh.IsUnknown() {
		data.EventMeshUnknown, data.CloudIntegrationUnknown, data.AEMUnknown = true, true, true
		// Known only after apply, for example a service key from another resource. Resources
		// report the missing connection when they are asked to act.
		resp.DataSourceData, resp.ResourceData, resp.ListResourceData, resp.ActionData = data, data, data, data
		return
	}

	var emDiags diag.Diagnostics
	em, source, ok := p.eventMeshKey(ctx, cfg, &emDiags)
	data.EventMeshKeyError = deferKeyError(cfg.EventMesh, &emDiags)
	resp.Diagnostics.Append(emDiags...)
	if ok {
		mgmtCfg := common
		mgmtCfg.BaseURL, mgmtCfg.TokenURL = em.ManagementURL, em.TokenURL
		mgmtCfg.ClientID, mgmtCfg.ClientSecret = em.ClientID, em.ClientSecret
		mgmtCfg.ClientCertificate, mgmtCfg.ClientKey = em.Certificate, em.Key
		framework.MaskSecrets(&ctx, em.ClientSecret, em.MessagingClientSecret, em.Key, em.MessagingKey)
		h, err := p.newHTTPClient(mgmtCfg)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("event_mesh"), "Invalid Event Mesh Connection", connectionDetail("event_mesh", err))
			return
		}
		warnTokenHost(&resp.Diagnostics, "event_mesh", "Event Mesh", em.ManagementURL, em.TokenURL, trusted)
		if em.MessagingURL != "" && em.MessagingTokenURL != em.TokenURL {
			warnTokenHost(&resp.Diagnostics, "event_mesh", "Event Mesh messaging", em.MessagingURL, em.MessagingTokenURL, trusted)
		}
		data.EventMesh = eventmesh.New(h)
		data.EventMeshCredential = framework.Credential{Service: "Event Mesh management API", Source: source, ClientID: em.ClientID, HTTP: h}
		data.SetInstanceKeys(ctx, em.ManagementURL, em.ClientID, "")
		if em.MessagingURL != "" {
			msgCfg := common
			msgCfg.BaseURL, msgCfg.TokenURL = em.MessagingURL, em.MessagingTokenURL
			msgCfg.ClientID, msgCfg.ClientSecret = em.MessagingClientID, em.MessagingClientSecret
			msgCfg.ClientCertificate, msgCfg.ClientKey = em.MessagingCertificate, em.MessagingKey
			if mh, err := p.newHTTPClient(msgCfg); err == nil {
				data.Messaging = eventmesh.NewMessaging(mh)
				data.MessagingCredential = framework.Credential{Service: "Event Mesh messaging API", Source: source + " (its messaging entry)", ClientID: em.MessagingClientID, HTTP: mh}
			} else {
				tflog.Warn(ctx, "Event Mesh messaging API unavailable", map[string]any{"error": err.Error()})
			}
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}

	var ciDiags diag.Diagnostics
	ci, source, ok := p.cloudIntegrationKey(ctx, cfg, &ciDiags)
	data.CloudIntegrationKeyError = deferKeyError(cfg.CloudIntegration, &ciDiags)
	resp.Diagnostics.Append(ciDiags...)
	if ok {
		ciCfg := common
		ciCfg.BaseURL, ciCfg.TokenURL = ci.URL, ci.TokenURL
		ciCfg.ClientID, ciCfg.ClientSecret = ci.ClientID, ci.ClientSecret
		ciCfg.ClientCertificate, ciCfg.ClientKey = ci.Certificate, ci.Key
		ciCfg.CSRFFetchPath = cpi.CSRFFetchPath
		ciCfg.MaxResponseBytes = httpx.ArtifactMaxResponseBytes // integration flow archives
		framework.MaskSecrets(&ctx, ci.ClientSecret, ci.Key)
		h, err := p.newHTTPClient(ciCfg)
		if err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("cloud_integration"), "Invalid Cloud Integration Connection", connectionDetail("cloud_integration", err))
			return
		}
		warnTokenHost(&resp.Diagnostics, "cloud_integration", "Cloud Integration", ci.URL, ci.TokenURL, trusted)
		data.CloudIntegration = cpi.New(h)
		data.Flows = cpi.NewFlows(data.CloudIntegration)
		data.CloudIntegrationCredential = framework.Credential{Service: "Cloud Integration API", Source: source, ClientID: ci.ClientID, HTTP: h}
		data.SetInstanceKeys(ctx, "", "", ci.URL)
	}
	if resp.Diagnostics.HasError() {
		return
	}

	p.configureAEM(ctx, cfg.AdvancedEventMesh, common, data, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.DataSourceData, resp.ResourceData, resp.ListResourceData, resp.ActionData = data, data, data, data
}

// deferKeyError takes the errors out of diags when the provider block sets nothing of the
// service's block (block is null), so that the key came from the environment, and returns them
// without their attribute path, for the resources that need the service to report.
func deferKeyError(block types.Object, diags *diag.Diagnostics) diag.Diagnostics {
	if !block.IsNull() || !diags.HasError() {
		return nil
	}
	var deferred, kept diag.Diagnostics
	for _, d := range *diags {
		if d.Severity() == diag.SeverityError {
			deferred.Append(diag.NewErrorDiagnostic(d.Summary(), d.Detail()))
		} else {
			kept.Append(d)
		}
	}
	*diags = kept
	return deferred
}

// warnTokenHost warns when the token endpoint is on a host that shares no domain with the API
// host and is not a host of SAP BTP: the client credentials go there.
func warnTokenHost(diags *diag.Diagnostics, attr, title, apiURL, tokenURL string, trusted []string) {
	w := httpx.TokenHostWarning(apiURL, tokenURL, trusted)
	if w == "" {
		return
	}
	host := tokenURL
	if u, err := url.Parse(tokenURL); err == nil {
		host = u.Hostname()
	}
	diags.AddAttributeWarning(path.Root(attr), "Unexpected "+title+" Token Host",
		fmt.Sprintf("In the %s connection, %s. Check that the service key is the one SAP BTP created. If %q is the "+
			"token endpoint you expect (for example your own identity provider), add %q to the provider's `trusted_token_hosts`.",
			title, w, host, host))
}

// connectionSection describes one connection block of the provider: Event Mesh or Cloud Integration.
type connectionSection struct {
	attr, title, env, urlAttr, keyHint string
}

var (
	eventMeshSection = connectionSection{
		attr: "event_mesh", title: "Event Mesh", env: framework.EnvEventMeshServiceKey, urlAttr: "management_url",
		keyHint: "the service key JSON of the Event Mesh instance as BTP shows it",
	}
	cloudIntegrationSection = connectionSection{
		attr: "cloud_integration", title: "Cloud Integration", env: framework.EnvCloudIntegrationServiceKey, urlAttr: "url",
		keyHint: "the service key JSON of the Process Integration Runtime instance (plan api)",
	}
)

// connectionValues are the attributes of a connection block.
type connectionValues struct {
	serviceKey, url, tokenURL, clientID, clientSecret types.String
}

// connection is a resolved connection: service key JSON, or the explicit fields.
type connection struct {
	key                                   []byte
	source                                string
	url, tokenURL, clientID, clientSecret string
}

// resolve finds the connection of a block from its attributes or the environment. It returns false when the
// section is not configured, when a value is unknown until apply, or after adding an error.
func (s connectionSection) resolve(v connectionValues, diags *diag.Diagnostics) (connection, bool) {
	attr := path.Root(s.attr)
	for _, x := range []types.String{v.serviceKey, v.url, v.tokenURL, v.clientID, v.clientSecret} {
		if x.IsUnknown() {
			return connection{}, false
		}
	}
	c := connection{url: v.url.ValueString(), tokenURL: v.tokenURL.ValueString(), clientID: v.clientID.ValueString(), clientSecret: v.clientSecret.ValueString()}
	// A field that is set counts as set even when empty: only a block without any of them
	// falls back to the environment, which may name another instance.
	explicit := !v.url.IsNull() || !v.tokenURL.IsNull() || !v.clientID.IsNull() || !v.clientSecret.IsNull()
	keyText, source := v.serviceKey.ValueString(), s.attr+".service_key"
	if !v.serviceKey.IsNull() && strings.TrimSpace(keyText) == "" {
		diags.AddAttributeError(attr.AtName("service_key"), "Empty "+s.title+" Service Key",
			fmt.Sprintf("The %s block sets `service_key`, but it is empty. The provider does not fall back to %s then: an empty value "+
				"(for example from a variable or file that is not filled) would silently connect to whatever instance the environment names. "+
				"Set `service_key` to %s, or remove the attribute to use %s.", s.attr, s.env, s.keyHint, s.env))
		return connection{}, false
	}
	if v.serviceKey.IsNull() && !explicit {
		keyText, source = os.Getenv(s.env), s.env
	}
	switch {
	case keyText != "" && explicit:
		diags.AddAttributeError(attr, "Conflicting "+s.title+" Settings",
			fmt.Sprintf("The %s block sets `service_key` together with explicit connection fields, so it is unclear which to use. "+
				"Set either `service_key` or %s, `token_url`, `client_id` and `client_secret`.", s.attr, s.urlAttr))
		return connection{}, false
	case keyText != "":
		raw, err := servicekey.Load(keyText)
		if err != nil {
			s.invalidKey(diags, source, err)
			return connection{}, false
		}
		c.key, c.source = raw, source
		return c, true
	case explicit:
		for name, val := range map[string]string{s.urlAttr: c.url, "token_url": c.tokenURL, "client_id": c.clientID, "client_secret": c.clientSecret} {
			if val == "" {
				diags.AddAttributeError(attr.AtName(name), "Missing "+s.title+" Setting",
					fmt.Sprintf("The `%s` block sets explicit connection fields but leaves `%s` empty. Set `%s`, or use `service_key` instead.", s.attr, name, name))
			}
		}
		return c, !diags.HasError()
	default:
		return connection{}, false
	}
}

func (s connectionSection) invalidKey(diags *diag.Diagnostics, source string, err error) {
	diags.AddAttributeError(path.Root(s.attr), "Invalid "+s.title+" Service Key",
		fmt.Sprintf("The service key from %s cannot be used: %s. Set it to %s.", source, framework.Clause(err), s.keyHint))
}

// eventMeshKey resolves the Event Mesh connection from the provider block or the environment.
// source names where it came from, for the errors that concern its credentials.
func (p *sapMessagingProvider) eventMeshKey(ctx context.Context, cfg providerModel, diags *diag.Diagnostics) (servicekey.EventMesh, string, bool) {
	var m eventMeshModel
	if !cfg.EventMesh.IsNull() {
		if diags.Append(cfg.EventMesh.As(ctx, &m, framework.ObjectAsOptions)...); diags.HasError() {
			return servicekey.EventMesh{}, "", false
		}
	}
	c, ok := eventMeshSection.resolve(connectionValues{m.ServiceKey, m.ManagementURL, m.TokenURL, m.ClientID, m.ClientSecret}, diags)
	if !ok {
		return servicekey.EventMesh{}, "", false
	}
	if c.key == nil {
		return servicekey.EventMesh{ManagementURL: c.url, TokenURL: c.tokenURL, ClientID: c.clientID, ClientSecret: c.clientSecret},
			"`event_mesh.client_id` and `event_mesh.client_secret`", true
	}
	em, err := servicekey.ParseEventMesh(c.key)
	if err != nil {
		eventMeshSection.invalidKey(diags, c.source, err)
		return servicekey.EventMesh{}, "", false
	}
	return em, c.source, true
}

// cloudIntegrationKey resolves the Cloud Integration connection from the provider block or the environment.
// source names where it came from, for the errors that concern its credentials.
func (p *sapMessagingProvider) cloudIntegrationKey(ctx context.Context, cfg providerModel, diags *diag.Diagnostics) (servicekey.CloudIntegration, string, bool) {
	var m cloudIntegrationModel
	if !cfg.CloudIntegration.IsNull() {
		if diags.Append(cfg.CloudIntegration.As(ctx, &m, framework.ObjectAsOptions)...); diags.HasError() {
			return servicekey.CloudIntegration{}, "", false
		}
	}
	c, ok := cloudIntegrationSection.resolve(connectionValues{m.ServiceKey, m.URL, m.TokenURL, m.ClientID, m.ClientSecret}, diags)
	if !ok {
		return servicekey.CloudIntegration{}, "", false
	}
	if c.key == nil {
		return servicekey.CloudIntegration{URL: c.url, TokenURL: c.tokenURL, ClientID: c.clientID, ClientSecret: c.clientSecret},
			"`cloud_integration.client_id` and `cloud_integration.client_secret`", true
	}
	ci, err := servicekey.ParseCloudIntegration(c.key)
	if err != nil {
		cloudIntegrationSection.invalidKey(diags, c.source, err)
		return servicekey.CloudIntegration{}, "", false
	}
	if ci.ExternalKey {
		key, ok := externalPrivateKey(m.PrivateKey, diags)
		if !ok {
			return servicekey.CloudIntegration{}, "", false
		}
		ci.Key = key
	}
	return ci, c.source, true
}

// externalPrivateKey returns the private key of an "External Certificate" service key from
// cloud_integration.private_key or the environment.
func externalPrivateKey(v types.String, diags *diag.Diagnostics) (string, bool) {
	at := path.Root("cloud_integration").AtName("private_key")
	if v.IsUnknown() {
		return "", false
	}
	text, source := v.ValueString(), "cloud_integration.private_key"
	if strings.TrimSpace(text) == "" {
		text, source = os.Getenv(framework.EnvCloudIntegrationPrivateKey), framework.EnvCloudIntegrationPrivateKey
	}
	if strings.TrimSpace(text) == "" {
		diags.AddAttributeError(at, "Missing Cloud Integration Private Key",
			"The Cloud Integration service key is of type External Certificate: it holds the client certificate but not its private key, "+
				"which stays with you. Set `cloud_integration.private_key`, or the environment variable "+framework.EnvCloudIntegrationPrivateKey+
				", to the PEM private key of that certificate or the path of a file holding it.")
		return "", false
	}
	key, err := servicekey.LoadPrivateKey(text)
	if err != nil {
		diags.AddAttributeError(at, "Invalid Cloud Integration Private Key",
			fmt.Sprintf("The private key from %s cannot be used: %s. Set the PEM private key of the client certificate of the service key, unencrypted.", source, framework.Clause(err)))
		return "", false
	}
	return key, true
}

func (p *sapMessagingProvider) Resources(_ context.Context) []func() resource.Resource {
	var all []func() resource.Resource
	for _, sp := range servicePackages {
		all = append(all, sp.Resources...)
	}
	return all
}

// ListResources are the list resources of `terraform query` (Terraform 1.14 and later).
func (p *sapMessagingProvider) ListResources(_ context.Context) []func() list.ListResource {
	var all []func() list.ListResource
	for _, sp := range servicePackages {
		all = append(all, sp.ListResources...)
	}
	return all
}

// Actions are the actions of `terraform apply -invoke` and action_trigger (Terraform 1.14 and later).
func (p *sapMessagingProvider) Actions(_ context.Context) []func() action.Action {
	var all []func() action.Action
	for _, sp := range servicePackages {
		all = append(all, sp.Actions...)
	}
	return all
}

func (p *sapMessagingProvider) DataSources(_ context.Context) []func() datasource.DataSource {
	var all []func() datasource.DataSource
	for _, sp := range servicePackages {
		all = append(all, sp.DataSources...)
	}
	return all
}

func (p *sapMessagingProvider) Functions(_ context.Context) []func() function.Function {
	var all []func() function.Function
	for _, sp := range servicePackages {
		all = append(all, sp.Functions...)
	}
	return all
}

// connectionDetail explains a connection block whose HTTP client cannot be built.
func connectionDetail(block string, err error) string {
	return fmt.Sprintf("The provider cannot connect with these settings: %s. Check the %s block of the provider configuration.", framework.Clause(err), block)
}
