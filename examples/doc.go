// Package examples holds no code: the directory's scripts are studies as
// the field reports ran them, each ending in one HTML page, and its test
// runs every script scaled down (SCALE=small) and checks each page in
// headless Chromium.
package examples
