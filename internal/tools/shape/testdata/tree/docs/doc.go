// Package docs holds tests only.
package docs
