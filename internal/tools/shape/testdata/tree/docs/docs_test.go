package docs
