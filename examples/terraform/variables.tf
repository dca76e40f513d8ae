variable "pager_token" {
  description = "Bearer token the on-call pager's webhook expects (a contact credential)."
  type        = string
  sensitive   = true
}

variable "webhook_secret" {
  description = "Signs every delivery of the incident-bot webhook: 16 to 128 characters."
  type        = string
  sensitive   = true
}

variable "checkout_password" {
  description = "Password of the checkout health endpoint's basic auth."
  type        = string
  sensitive   = true
}

variable "status_page_slug" {
  description = "Public address of the status page; unique in the whole service."
  type        = string
  default     = "example-shop-status"
}
