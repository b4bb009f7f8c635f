"""The logic of the web service: routes only call these and turn their answers into responses."""
