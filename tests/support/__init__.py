"""Helpers shared by test suites (throwaway servers, fixtures)."""
