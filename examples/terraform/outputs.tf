output "account_plan" {
  value = data.vigil_account.current.plan
}

output "pool_ids" {
  value = [for p in data.vigil_agent_pools.all.pools : p.id]
}

output "browser_types" {
  description = "Monitor types checked by a browser fleet."
  value       = [for t in data.vigil_monitor_types.all.types : t.type if t.fleet == "waterfall"]
}

output "monitor_ids" {
  value = {
    checkout = vigil_monitor.checkout.id
    edge     = vigil_monitor.edge.id
    mail     = vigil_monitor.mail.id
  }
}

output "checkout_state" {
  description = "The checkout monitor's state, read through the vigil_monitor data source."
  value       = data.vigil_monitor.checkout.state
}

output "status_page_url" {
  value = vigil_status_page.public.public_url
}
