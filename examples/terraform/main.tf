# Every vigil resource kind and data source, in plain HCL. The provider reads its endpoint and token
# from VIGIL_ENDPOINT and VIGIL_TOKEN, so this file holds no secrets.
terraform {
  required_providers {
    vigil = {
      source  = "vigil/vigil"
      version = "~> 0.1"
    }
  }
}

provider "vigil" {}

# --- Contacts: who hears about problems ---

resource "vigil_contact" "oncall" {
  type      = "http"
  name      = "On-call pager"
  address   = "https://hooks.example.com/pager"
  mime_type = "application/json"
  http_headers = [
    # A credential: the value comes from a sensitive variable, so plans never print it.
    { header = "Authorization", value = "Bearer ${var.pager_token}" },
  ]
}

resource "vigil_contact" "sre_email" {
  type    = "email"
  name    = "SRE team"
  address = "sre@example.com"
  active_period = {
    days = ["mon", "tue", "wed", "thu", "fri"]
    from = "07:00"
    to   = "19:00"
  }
}

resource "vigil_contact" "reports" {
  type     = "email"
  name     = "Management reports"
  address  = "reports@example.com"
  language = "de"
}

resource "vigil_contact_group" "sre" {
  name = "SRE"
  members = [
    { contact_id = vigil_contact.oncall.id, events = ["down", "up", "repeatedlyDown"] },
    { contact_id = vigil_contact.sre_email.id, events = ["down", "up", "weekly"] },
  ]
}

# --- Monitors of three types ---

resource "vigil_monitor" "checkout" {
  type       = "http"
  url        = "https://shop.example.com/health"
  name       = "Checkout API"
  interval   = 60
  tags       = ["shop", "prod"]
  sla_target = 99.95
  locations  = { pools = ["westeurope", "northamerica"] }
  recheck    = { strategy = "minNumDown", min_num_down = 2 }

  settings = {
    method          = "G"
    timeout         = 10000
    keywords        = "ok"
    follow_redirect = true
    username        = "probe"
    password        = var.checkout_password
    cert_watch_days = [30, 7]
    headers = [
      { name = "Accept-Language", value = "en" },
    ]
  }
}

resource "vigil_monitor" "edge" {
  type      = "ping"
  url       = "edge.example.com"
  name      = "Edge gateway"
  interval  = 120
  tags      = ["platform"]
  locations = { pools = ["allworld"], fallback = "world" }
}

resource "vigil_monitor" "mail" {
  type      = "port"
  url       = "mail.example.com:587"
  name      = "Mail submission (SMTP)"
  interval  = 300
  tags      = ["platform", "mail"]
  locations = { pools = ["westeurope"] }
  settings  = { pattern = "220 ", ssl = false }
}

# --- Subscriptions: which contact hears about which monitor ---

resource "vigil_alert_subscription" "checkout_oncall" {
  monitor_id  = vigil_monitor.checkout.id
  contact_id  = vigil_contact.oncall.id
  alert_types = ["down", "up"]
}

resource "vigil_alert_subscription" "mail_sre" {
  monitor_id  = vigil_monitor.mail.id
  contact_id  = vigil_contact.sre_email.id
  alert_types = ["down", "up", "repeatedlyDown"]
}

resource "vigil_report_subscription" "checkout_reports" {
  monitor_id  = vigil_monitor.checkout.id
  contact_id  = vigil_contact.reports.id
  frequencies = ["weekly", "monthly"]
}

# --- Planned downtime, the public status page, and event deliveries ---

resource "vigil_maintenance" "weekly_deploy" {
  name        = "Weekly deploy"
  from        = 1798941600 # 2027-01-03T02:00:00Z
  to          = 1798945200 # one hour later
  repeat      = "weekly"
  monitor_ids = [vigil_monitor.checkout.id, vigil_monitor.edge.id]
}

resource "vigil_status_page" "public" {
  slug        = var.status_page_slug
  title       = "Example Shop status"
  description = "Live availability of the shop."
  theme       = "auto"
  components = [
    { name = "Checkout", monitor_id = vigil_monitor.checkout.id },
    { name = "Edge network", monitor_id = vigil_monitor.edge.id },
    # A component without a monitor: its state is set by hand.
    { name = "Customer support", manual_state = "operational" },
  ]
}

# Saved incident text, ready when checkout goes down. Templates have no update: a change replaces one.
resource "vigil_status_page_template" "checkout_down" {
  page_id = vigil_status_page.public.id
  title   = "Checkout unavailable"
  message = "Payments fail. We are working on it."
  impact  = "major"
}

resource "vigil_webhook" "incident_bot" {
  name   = "Incident bot"
  url    = "https://hooks.example.com/vigil/incidents"
  events = ["monitor.down", "monitor.up", "incident.opened", "incident.closed"]
  scope  = { tags = ["prod"] }
  # Write-only: the API never shows it back, so Terraform keeps what was applied.
  secret = var.webhook_secret
  headers = [
    { header = "X-Team", value = "platform" },
  ]
}

# --- Data sources ---

data "vigil_account" "current" {}

data "vigil_agent_pools" "all" {}

data "vigil_monitor_types" "all" {}

# Looks a monitor up by its natural key. Referencing the resource's attributes makes Terraform read it
# after the monitor exists.
data "vigil_monitor" "checkout" {
  type = vigil_monitor.checkout.type
  url  = vigil_monitor.checkout.url
}
